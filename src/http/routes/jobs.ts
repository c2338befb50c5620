import {createRoute, OpenAPIHono, z} from '@hono/zod-openapi'
import type {HttpServices} from '../../app/http-services.js'
import {validationHook} from '../errors.js'
import type {HttpMetrics} from '../metrics.js'
import {errorResponses, JobSchema, SourceOutcomeSchema} from '../schemas.js'

const searchJobs = createRoute({
  method: 'get',
  path: '/jobs',
  tags: ['jobs'],
  summary: 'Search the configured job boards now',
  description:
    'Runs the search pipeline (boards, filters, deduplication) on each call; concurrent calls with the same tags ' +
    'share one search. A board that fails is reported in `sources` and the others still count.',
  request: {
    query: z.object({
      tags: z
        .string()
        .optional()
        .openapi({description: 'comma-separated tags, replacing search.tags', example: 'typescript,node'}),
    }),
  },
  responses: {
    200: {
      description: 'The jobs found and how each board fared',
      content: {
        'application/json': {
          schema: z.object({
            jobs: z.array(JobSchema),
            count: z.number().int(),
            sources: z.array(SourceOutcomeSchema),
            searched_at: z.string().openapi({example: '2026-11-22T04:17:33Z'}),
          }),
        },
      },
    },
    ...errorResponses(401, 422, 503),
  },
})

export function jobsRoutes(services: HttpServices, metrics: HttpMetrics) {
  return new OpenAPIHono({defaultHook: validationHook}).openapi(searchJobs, async (c) => {
    const tags = (c.req.valid('query').tags ?? '')
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean)
    const result = await services.jobs.search(tags)
    metrics.countSearch(result)
    return c.json(
      {jobs: result.jobs, count: result.jobs.length, sources: result.sources, searched_at: result.searched_at},
      200,
    )
  })
}
