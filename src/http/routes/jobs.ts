import {createRoute, OpenAPIHono, z} from '@hono/zod-openapi'
import type {HttpServices} from '../../app/http-services.js'
import {trackedRecord} from '../../core/applications/application.js'
import {definedFields, picked} from '../../core/defined-fields.js'
import {UnavailableError} from '../../core/errors.js'
import type {ListedJob} from '../../core/jobs/job-catalog.js'
import {JOBS_PAGE} from '../../core/paging.js'
import {validationHook} from '../errors.js'
import type {HttpMetrics} from '../metrics.js'
import {
  errorResponses,
  JobIdParamSchema,
  LAST_RUN_FIELDS,
  LastRunPageSchema,
  LISTED_JOB_FIELDS,
  pageQuery,
  RecordedSchema,
  SearchResultSchema,
  TrackingAnswerSchema,
  TrackingRequestSchema,
  TrackJobRequestSchema,
  VerdictGivenSchema,
  VerdictRequestSchema,
  VerdictUndoneSchema,
  wholeNumberQuery,
  wordQuery,
} from '../schemas.js'

const lastRunJobs = createRoute({
  method: 'get',
  path: '/jobs/last',
  tags: ['jobs'],
  summary: 'The jobs the last run stored, new ones first',
  description:
    'What `jobagent jobs` and the dashboard list: the jobs stored by the last `jobagent run`, each with its short ' +
    'id, the status of the application tracked with its URL, and whether it is new (not yet applied for); new ' +
    'jobs first, then newest posting first, a page at a time (`total` counts them all); with a profile in the ' +
    'config, by score instead (highest first), each job with its `score` and `reasons`. Runs no search. `run` is ' +
    'null and `jobs` empty before any run.',
  request: {
    query: z.object({
      new: wordQuery('new', ['true', 'false'], {
        description: 'true: only new jobs (not yet applied for)',
        example: 'true',
      }),
      min_score: minScoreQuery(),
      dismissed: wordQuery('dismissed', ['true', 'false'], {
        description: 'true: only the jobs dismissed (POST /jobs/{id}/verdict); otherwise they are left out',
        example: 'true',
      }),
      state: wordQuery('state', ['open', 'closed', 'all'], {
        description:
          "open (default): the last run's jobs; closed: the jobs no board lists any more, most recently closed " +
          'first (the 1,000 latest); all: both',
        example: 'closed',
      }),
      search: z.string().optional().openapi({description: 'text in the title, company or tags (any case)'}),
      source: z
        .string()
        .optional()
        .openapi({description: 'a board type (greenhouse, remoteok, rss): any board that listed the job'}),
      since: z
        .string()
        .optional()
        .openapi({description: 'first seen in the last N days, weeks or months', example: '7d'}),
      ...pageQuery('jobs', JOBS_PAGE),
    }),
  },
  responses: {
    200: {
      description: 'The last run and its jobs',
      content: {
        'application/json': {
          schema: LastRunPageSchema,
        },
      },
    },
    ...errorResponses(401, 422),
  },
})

const searchJobs = createRoute({
  method: 'get',
  path: '/jobs',
  tags: ['jobs'],
  summary: 'Search the configured job boards now',
  description:
    'Runs the search pipeline (boards, filters, deduplication) on each call; concurrent calls with the same tags ' +
    'share one search. A board that fails is reported in `sources` and the others still count. Each job says ' +
    'whether it is tracked and new exactly as `jobagent run` decides it (its URL or canonical URL matched).',
  request: {
    query: z.object({
      tags: z
        .string()
        .optional()
        .openapi({description: 'comma-separated tags, replacing search.tags', example: 'typescript,node'}),
      min_score: minScoreQuery(),
    }),
  },
  responses: {
    200: {
      description: 'The jobs found and how each board fared',
      content: {
        'application/json': {
          schema: SearchResultSchema,
        },
      },
    },
    ...errorResponses(401, 422),
  },
})

const trackJob = createRoute({
  method: 'post',
  path: '/jobs/track',
  tags: ['jobs'],
  summary: 'Track a job by its id or any link to it, unless it is tracked already',
  description:
    'What `jobagent apply <id|URL>` does: `job_id` names a stored job; a `url` of a stored job (whatever tracking ' +
    'parameters it carries: utm_*, gh_src, ref...) fills title, company, location and source from the job, the ' +
    'URL kept as given; any other `url` needs title, company and source, as POST /applications. Fields given win ' +
    "over the job's. 409 when an application is tracked under the job URL or its canonical URL (tracking " +
    'parameters removed), naming it (`already tracked as #3`), so such a URL never becomes a second application. ' +
    'The web page tracks jobs with it.',
  request: {body: {required: true, content: {'application/json': {schema: TrackJobRequestSchema}}}},
  responses: {
    201: {description: 'Recorded', content: {'application/json': {schema: RecordedSchema}}},
    ...errorResponses(401, 409, 413, 415, 422),
  },
})

const jobTracking = createRoute({
  method: 'post',
  path: '/jobs/tracking',
  tags: ['jobs'],
  summary: 'Whether jobs are tracked and new, by their URLs',
  description:
    'Checks each URL as GET /jobs checks its jobs, against the tracker as it is now; in the order given. For ' +
    'clients that keep a list of jobs and want it current after a change (the web page).',
  request: {body: {required: true, content: {'application/json': {schema: TrackingRequestSchema}}}},
  responses: {
    200: {
      description: 'One answer per URL',
      content: {'application/json': {schema: TrackingAnswerSchema}},
    },
    ...errorResponses(401, 413, 415, 422),
  },
})

const giveVerdictRoute = createRoute({
  method: 'post',
  path: '/jobs/{id}/verdict',
  tags: ['jobs'],
  summary: 'Like or dismiss a job the last run stored',
  description:
    'What `jobagent jobs <id> --like` and `--dismiss` do: the verdict is kept (replacing an earlier one) and the ' +
    'next GET /jobs/last, GET /jobs and run rank with it at once: jobs like a liked one rise, jobs like a dismissed ' +
    'one sink (docs/MATCHING.md, "Verdicts"). A dismissed job is left out of listings and never notified again. ' +
    '`proposal` is a config change that several dismissals with the same reason suggest, or null.',
  request: {
    params: JobIdParamSchema,
    body: {required: true, content: {'application/json': {schema: VerdictRequestSchema}}},
  },
  responses: {
    200: {
      description: 'The verdict kept, and the one it replaced',
      content: {
        'application/json': {
          schema: VerdictGivenSchema,
        },
      },
    },
    ...errorResponses(401, 404, 413, 415, 422),
  },
})

const undoVerdictRoute = createRoute({
  method: 'delete',
  path: '/jobs/{id}/verdict',
  tags: ['jobs'],
  summary: 'Take back the like or dismissal of a job',
  description: 'What `jobagent jobs <id> --undo` does; 404 when the job has no verdict.',
  request: {params: JobIdParamSchema},
  responses: {
    200: {
      description: 'The verdict taken back',
      content: {'application/json': {schema: VerdictUndoneSchema}},
    },
    ...errorResponses(401, 404),
  },
})

/**
 * `stopping`: aborted when a shutdown has waited for requests in flight as long as it does; a search still waiting
 * for its boards then stops them instead of holding the process.
 */
export function jobsRoutes(services: HttpServices, metrics: HttpMetrics, options: {stopping?: AbortSignal} = {}) {
  // /jobs/last is registered first, so it keeps winning should a /jobs/{id} route ever join.
  return new OpenAPIHono({defaultHook: validationHook})
    .openapi(lastRunJobs, async (c) => {
      const query = c.req.valid('query')
      const {run, jobs, total, limit, offset, new_jobs} = await services.jobs.lastRunPage({
        newOnly: query.new === 'true',
        ...(query.min_score === undefined ? {} : {minScore: query.min_score}),
        ...(query.state === undefined ? {} : {state: query.state}),
        dismissed: query.dismissed === 'true',
        filter: {search: query.search, source: query.source, since: query.since},
        ...(query.limit === undefined ? {} : {limit: query.limit}),
        ...(query.offset === undefined ? {} : {offset: query.offset}),
      })
      const listed = jobs.map(toListedJob)
      const summary = run && picked({...run, new_jobs}, LAST_RUN_FIELDS)
      return c.json({run: summary, jobs: listed, count: listed.length, total, limit, offset}, 200)
    })
    .openapi(searchJobs, async (c) => {
      const query = c.req.valid('query')
      const tags = (query.tags ?? '')
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean)
      const result = await services.jobs.search(tags, options.stopping)
      if (options.stopping?.aborted) {
        const message = 'the server is shutting down; the search was stopped'
        throw new UnavailableError(message, {retryAfterSeconds: 5, publicMessage: message})
      }
      metrics.countSearch(result)
      // Checked per call, after the (possibly shared) search: the tracker may have changed while it ran.
      const jobs = await services.jobs.rankFound(
        result.found,
        query.min_score === undefined ? {} : {minScore: query.min_score},
      )
      return c.json({jobs, count: jobs.length, sources: result.sources, searched_at: result.searched_at}, 200)
    })
    .openapi(trackJob, async (c) => {
      const {job_id, url, ...fields} = c.req.valid('json')
      const target = {...(job_id === undefined ? {} : {jobId: job_id}), ...(url === undefined ? {} : {url})}
      const application = await services.jobs.trackLink(target, definedFields(fields))
      metrics.countApplicationRecorded()
      return c.json({status: 'recorded' as const, application: trackedRecord(application)}, 201)
    })
    .openapi(jobTracking, async (c) => {
      const urls = c.req.valid('json').urls
      return c.json({jobs: await services.jobs.withTracking(urls.map((url) => ({url})))}, 200)
    })
    .openapi(giveVerdictRoute, async (c) => {
      const {verdict, reason} = c.req.valid('json')
      const given = await services.jobs.giveVerdict(c.req.valid('param').id, verdict, {reason: reason ?? null})
      return c.json({verdict: given.verdict, previous: given.previous, proposal: given.proposal}, 200)
    })
    .openapi(undoVerdictRoute, async (c) => {
      return c.json({undone: await services.jobs.undoVerdict(c.req.valid('param').id)}, 200)
    })
}

/** The documented fields in order, whatever else the store keeps about a job. */
function toListedJob(job: ListedJob) {
  return picked(job, LISTED_JOB_FIELDS)
}

/** `min_score`: only jobs scored this or more; with no profile nothing is scored and it filters nothing. */
function minScoreQuery() {
  return wholeNumberQuery(
    'min_score',
    {min: 0, max: 100},
    {description: 'with a profile: only jobs scored this or more (0-100)', example: '60'},
  )
}
