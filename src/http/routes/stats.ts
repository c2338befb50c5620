import {createRoute, OpenAPIHono, z} from '@hono/zod-openapi'
import type {HttpServices} from '../../app/http-services.js'
import {APPLICATION_STATUSES} from '../../core/applications/application.js'
import {FUNNEL_STAGES} from '../../core/applications/stats.js'
import {validationHook} from '../errors.js'
import {errorResponses} from '../schemas.js'

const rate = (description: string) => z.number().min(0).max(1).nullable().openapi({description})

const FunnelFiguresSchema = z.object({
  total: z.number().int(),
  by_status: z.object(Object.fromEntries(APPLICATION_STATUSES.map((status) => [status, z.number().int()]))),
  funnel: z.array(
    z.object({
      stage: z.enum(FUNNEL_STAGES),
      count: z.number().int().openapi({description: 'applications that reached this stage or a later one'}),
      conversion: rate('count over the previous stage\u2019s count; null for `saved` and after an empty stage'),
    }),
  ),
  applied: z.number().int().openapi({description: 'applications that reached `applied`'}),
  responded: z.number().int().openapi({description: 'of those, the ones that moved on to any answer'}),
  response_rate: rate('responded / applied; null when nothing was applied for'),
  median_days_to_response: z
    .number()
    .nullable()
    .openapi({description: 'median days from when it was applied for to the first change from `applied` to an answer'}),
})

const StatsSchema = FunnelFiguresSchema.extend({
  since: z.string().nullable().openapi({description: 'the earliest applied_date counted', example: null}),
  by_source: z.array(FunnelFiguresSchema.extend({source: z.string()})),
  by_month: z.array(FunnelFiguresSchema.extend({month: z.string().openapi({example: '2026-11'})})),
}).openapi('ApplicationStats')

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
