import {createRoute, OpenAPIHono, z} from '@hono/zod-openapi'
import type {HttpServices} from '../../app/http-services.js'
import {RUNS_PAGE} from '../../core/paging.js'
import {validationHook} from '../errors.js'
import {errorResponses, pageFields, pageQuery, RunSchema} from '../schemas.js'

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
