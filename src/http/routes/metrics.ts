import cluster from 'node:cluster'
import {createRoute, OpenAPIHono, z} from '@hono/zod-openapi'
import type {Context} from 'hono'
import type {HttpMetrics} from '../metrics.js'

const metricsRoute = createRoute({
  method: 'get',
  path: '/metrics',
  tags: ['operations'],
  summary: 'Prometheus metrics (open without a token)',
  security: [],
  responses: {
    200: {description: 'Prometheus text exposition format', content: {'text/plain': {schema: z.string()}}},
  },
})

export function metricsRoutes(metrics: HttpMetrics, names: (c: Context) => boolean) {
  return new OpenAPIHono().openapi(metricsRoute, async (c) => {
    const text = await metrics.exposition({names: names(c)})
    return c.text(text, 200, {
      'Content-Type': metrics.registry.contentType,
      'Cache-Control': 'no-store',
      // Under --workers a scraper's next connection goes to the next worker: a kept one would show one worker only.
      ...(cluster.isWorker ? {Connection: 'close'} : {}),
    })
  })
}
