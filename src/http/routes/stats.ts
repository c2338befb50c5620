import {createRoute, OpenAPIHono, z} from '@hono/zod-openapi'
import type {HttpServices} from '../../app/http-services.js'
import {validationHook} from '../errors.js'
import {errorResponses, StatsSchema} from '../schemas.js'

const getStats = createRoute({
  method: 'get',
  path: '/stats',
  tags: ['applications'],
  summary: 'Funnel statistics of the tracked applications',
  description:
    'What `jobagent stats --json` prints: counts per status, the funnel saved \u2192 applied \u2192 interviewing ' +
    '\u2192 offer \u2192 accepted (from the status histories), the response rate and the median days to the ' +
    'first response, the same per source and per month of applied_date.',
  request: {
    query: z.object({
      since: z
        .string()
        .optional()
        .openapi({description: 'only applications applied for within this period: 90d, 12w, 6m (30 days), 1y'}),
    }),
  },
  responses: {
    200: {description: 'The statistics', content: {'application/json': {schema: StatsSchema}}},
    ...errorResponses(401, 422),
  },
})

export function statsRoutes(services: Pick<HttpServices, 'applications'>) {
  return new OpenAPIHono({defaultHook: validationHook}).openapi(getStats, async (c) => {
    const {since} = c.req.valid('query')
    return c.json(await services.applications.stats(since === undefined ? {} : {since}), 200)
  })
}
