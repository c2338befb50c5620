import {createRoute, OpenAPIHono, z} from '@hono/zod-openapi'
import type {HttpServices} from '../../app/http-services.js'
import {RUNS_PAGE} from '../../core/paging.js'
import {validationHook} from '../errors.js'
import {errorResponses, pageFields, pageQuery, SourceOutcomeSchema} from '../schemas.js'

const RunSourceSchema = SourceOutcomeSchema.extend({
  anomaly: z
    .discriminatedUnion('code', [
      z.object({code: z.literal('zero_yield'), usual_count: z.number().int(), message: z.string()}),
      z.object({code: z.literal('dead'), runs: z.number().int(), message: z.string()}),
    ])
    .nullable()
    .openapi({
      description:
        'set when the board looked wrong: 0 jobs where it usually has some (`zero_yield`), or 404 or no jobs ' +
        'in each of its last `run.dead_after_runs` runs (`dead`)',
    }),
}).openapi('RunSourceOutcome')

const RunSchema = z
  .object({
    id: z.number().int(),
    started_at: z.string().openapi({example: '2026-11-22T07:30:00.412'}),
    finished_at: z.string().openapi({example: '2026-11-22T07:30:03.058'}),
    duration_ms: z.number().int(),
    status: z.enum(['ok', 'failed', 'interrupted']),
    mode: z.string(),
    jobs_found: z.number().int(),
    new_jobs: z.number().int(),
    notified: z.number().int(),
    error: z.string().nullable(),
    sources: z.array(RunSourceSchema),
  })
  .openapi('Run')

const listRuns = createRoute({
  method: 'get',
  path: '/runs',
  tags: ['jobs'],
  summary: 'The run ledger, newest first',
  description:
    'What `jobagent runs` lists: each recorded run with its duration, outcome, counts and every board\u2019s ' +
    'outcome. Dry runs and demo runs are not recorded.',
  request: {
    query: z.object(pageQuery('runs', RUNS_PAGE)),
  },
  responses: {
    200: {
      description: 'A page of runs',
      content: {
        'application/json': {
          schema: z.object({runs: z.array(RunSchema), ...pageFields}),
        },
      },
    },
    ...errorResponses(401, 422),
  },
})

export function runsRoutes(services: Pick<HttpServices, 'runs'>) {
  return new OpenAPIHono({defaultHook: validationHook}).openapi(listRuns, async (c) => {
    const {limit, offset} = c.req.valid('query')
    return c.json(await services.runs.list({limit, offset}), 200)
  })
}
