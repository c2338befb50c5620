import {createRoute, OpenAPIHono, z} from '@hono/zod-openapi'
import type {Context} from 'hono'
import type {Registry} from 'prom-client'
import {ValidationError} from '../../core/errors.js'
import {jsonWithValidators, validatorHeaders} from '../../http/entity-tags.js'
import {validationHook, withHttpStatus} from '../../http/errors.js'
import {errorResponses} from '../../http/schemas.js'
import {createShipmentMetrics} from '../app/shipment-metrics.js'
import {
  MAX_BATCH_IDS,
  MAX_SHIPMENT_ID_LENGTH,
  TooManyIdsError,
  validateBatchIds,
  validateShipmentId,
} from '../core/shipment-id.js'
import type {ShipmentService} from '../core/shipment-service.js'
import {stateVersion} from '../core/state-version.js'
import {checkHistoryQuery, TELEMETRY_PAGE, type TelemetryHistory} from '../core/telemetry-history.js'
import type {UnifiedBatch} from '../core/unified-state.js'
import {type ShipmentEventOptions, shipmentEventRoutes} from './shipment-events.js'

/** What the route needs: the shipment service, built lazily by the application context. */
interface ShipmentRouteServices {
  readonly shipments: ShipmentService
}

const isoTime = z.string().openapi({example: '2026-04-10T00:28:23.000Z'})

const telemetryDocument = (which: string) =>
  z.object({
    recorded_at: isoTime,
    payload: z.record(z.string(), z.unknown()).openapi({
      description: `${which} without its id, time and store-internal fields`,
      example: {lat: 53.54, lon: 9.98, temperature_c: 4.1},
    }),
  })

const UnifiedStateSchema = z
  .object({
    shipment_id: z.string().openapi({example: 'SHP-1001'}),
    metadata: z.record(z.string(), z.unknown()).openapi({
      description: 'Every column of the metadata row',
      example: {shipment_id: 'SHP-1001', origin: 'Rotterdam', destination: 'Hamburg', carrier: 'Nordline'},
    }),
    telemetry: telemetryDocument('The latest document')
      .nullable()
      .openapi({description: 'null until the first telemetry document arrives'}),
    freshness: z.object({
      last_seen_at: isoTime.nullable(),
      age_seconds: z.number().int().nullable(),
      stale: z.boolean().openapi({description: 'no telemetry yet, or older than stale_after_seconds'}),
      stale_after_seconds: z.number(),
    }),
    sources: z.object({
      metadata: z.enum(['sqlite', 'postgres', 'mysql']),
      telemetry: z.enum(['sqlite', 'postgres', 'mongodb']),
    }),
    generated_at: isoTime,
  })
  .openapi('UnifiedState')

/**
 * A check of the core (an id, a batch of ids, a history query) as a zod refinement, so a route's schema runs the
 * rules and messages the service and the CLI use: a refusal is one issue that carries the core's error, which the
 * routes' hook answers with as it is.
 */
function coreCheck<T>(check: (value: T) => unknown) {
  return (value: T, context: z.RefinementCtx) => {
    try {
      check(value)
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      context.addIssue({code: 'custom', message: error.message, params: {refusal: error}})
    }
  }
}

const ShipmentIdParam = z.object({
  shipment_id: z
    .string()
    .superRefine(coreCheck(validateShipmentId))
    .openapi({
      param: {name: 'shipment_id', in: 'path'},
      minLength: 1,
      maxLength: MAX_SHIPMENT_ID_LENGTH,
      description: `1 to ${MAX_SHIPMENT_ID_LENGTH} characters, no control characters; percent-encode / and other reserved characters`,
      example: 'SHP-1001',
    }),
})

const conditionalHeaders = z.object({
  'if-none-match': z.string().optional().openapi({
    description: 'An ETag of an earlier answer: 304 without a body while the shipment is unchanged',
    example: 'W/"3q2-7w"',
  }),
})

const validatorHeadersSchema = z.object({
  ETag: z.string().openapi({
    description:
      'Weak validator of the metadata row(s) and latest document(s), not of generated_at or the age: it changes ' +
      'when a row or the latest document does',
  }),
  'Last-Modified': z
    .string()
    .optional()
    .openapi({description: 'The time of the latest telemetry document, where there is one'}),
})

const notModified = {
  description:
    'Unchanged since the answer whose ETag was sent in If-None-Match; no body (the freshness in the earlier body ' +
    'is as old as that body)',
  headers: validatorHeadersSchema,
}

const unifiedState = createRoute({
  method: 'get',
  path: '/shipments/{shipment_id}/unified',
  tags: ['shipments'],
  summary: 'Metadata and latest telemetry of one shipment, merged',
  description:
    'Reads the metadata row and the latest telemetry document concurrently, each store within its timeout. ' +
    'No telemetry yet is 200 with telemetry null and stale true; a store that fails or is slow is 503 with Retry-After.',
  request: {params: ShipmentIdParam, headers: conditionalHeaders},
  responses: {
    200: {
      description: 'The unified state',
      headers: validatorHeadersSchema,
      content: {'application/json': {schema: UnifiedStateSchema}},
    },
    304: notModified,
    ...errorResponses(401, 404, 422),
  },
})

const UnifiedBatchSchema = z
  .object({
    shipments: z.array(UnifiedStateSchema).openapi({description: 'The shipments found, in the order asked, each once'}),
    missing: z.array(z.string()).openapi({description: 'The ids that name no shipment, in the order asked'}),
  })
  .openapi('UnifiedBatch')

const batchDescription =
  `Up to ${MAX_BATCH_IDS} different ids (repeats are answered once). Each id is checked as in ` +
  '/shipments/{shipment_id}/unified (400 naming the first bad one, every bad one in details). Each store is read ' +
  'once for the whole list, concurrently, within its timeout; a store that fails is 503 with Retry-After for the ' +
  'whole batch.'

const batchGet = createRoute({
  method: 'get',
  path: '/shipments/unified',
  tags: ['shipments'],
  summary: 'The unified state of several shipments (ids in the query string)',
  description: `${batchDescription} Ids that hold a comma need the POST form. More than ${MAX_BATCH_IDS} ids is 414; a request line over the server's header limit (16 KiB) is 431.`,
  request: {
    query: z.object({
      ids: z
        .union([z.string(), z.array(z.string())], {error: 'ids must name at least one shipment'})
        .superRefine(coreCheck((ids: string | string[]) => validateBatchIds(splitIds(ids))))
        .openapi({
          description: 'Comma-separated shipment ids; the parameter may be repeated',
          example: 'SHP-1001,SHP-1002',
        }),
    }),
    headers: conditionalHeaders,
  },
  responses: {
    200: {
      description: 'The shipments found and the ids missing',
      headers: validatorHeadersSchema,
      content: {'application/json': {schema: UnifiedBatchSchema}},
    },
    304: notModified,
    ...errorResponses(401, 414, 422),
  },
})

const batchPost = createRoute({
  method: 'post',
  path: '/shipments/unified',
  tags: ['shipments'],
  summary: 'The unified state of several shipments (ids in the body)',
  description: `${batchDescription} More than ${MAX_BATCH_IDS} ids, or a body over 64 KiB, is 413.`,
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z.object({
            ids: z
              .array(z.string({error: 'every id must be text'}), {
                error: (issue) =>
                  issue.input === undefined
                    ? 'ids is required, e.g. {"ids": ["SHP-1001"]}'
                    : 'ids must be a list of shipment ids, e.g. {"ids": ["SHP-1001"]}',
              })
              .superRefine(coreCheck(validateBatchIds))
              .openapi({maxItems: MAX_BATCH_IDS, example: ['SHP-1001', 'SHP-1002']}),
          }),
        },
      },
    },
  },
  responses: {
    200: {
      description: 'The shipments found and the ids missing (with their ETag; a POST is never answered 304)',
      headers: validatorHeadersSchema,
      content: {'application/json': {schema: UnifiedBatchSchema}},
    },
    ...errorResponses(401, 413, 415, 422),
  },
})

const TelemetryHistorySchema = z
  .object({
    shipment_id: z.string().openapi({example: 'SHP-1001'}),
    telemetry: z.array(telemetryDocument('The document')).openapi({description: 'This page, oldest first'}),
    count: z.number().int().openapi({description: 'documents in this answer'}),
    limit: z.number().int(),
    next_cursor: z.string().nullable().openapi({
      description: 'Pass as cursor (with the same since and until) for the next page; null on the last page',
      example: 'MjAyNi0wNC0xMFQwMDoyODoyMy4wMDBa',
    }),
  })
  .openapi('TelemetryHistory')

/** A parameter given more than once is refused by name. */
const onceQuery = (name: string) => z.string({error: `${name} must be given once`})

const isoQuery = (name: string, description: string, example: string) =>
  onceQuery(name)
    .optional()
    .openapi({description: `ISO 8601 time; ${description}`, example})

const telemetryHistory = createRoute({
  method: 'get',
  path: '/shipments/{shipment_id}/telemetry',
  tags: ['shipments'],
  summary: "A shipment's telemetry documents in time order, a page at a time",
  description:
    'The documents of one shipment, oldest first, read through the (id, time desc) index of the telemetry store ' +
    'within its timeout; the metadata row is read beside them only to answer 404 for an unknown shipment. ' +
    'since is inclusive and until exclusive (adjacent windows share no document). A page holds at most limit ' +
    'documents; next_cursor, passed back as cursor with the same since and until, gives the next one without ' +
    'gaps or repeats, and is null on the last page. A bad since, until (before since), limit or cursor is 400 ' +
    'naming it; a store that fails or is slow is 503 with Retry-After.',
  request: {
    params: ShipmentIdParam,
    query: z
      .object({
        since: isoQuery('since', 'documents recorded at or after it', '2026-04-10T00:00:00Z'),
        until: isoQuery('until', 'documents recorded before it', '2026-04-11T00:00:00Z'),
        limit: onceQuery('limit')
          .optional()
          .openapi({
            description: `documents per page, 1-${TELEMETRY_PAGE.maxLimit} (default ${TELEMETRY_PAGE.defaultLimit})`,
            example: String(TELEMETRY_PAGE.defaultLimit),
          }),
        cursor: onceQuery('cursor')
          .optional()
          .openapi({description: 'next_cursor of the previous page, unchanged (opaque)'}),
      })
      .superRefine(coreCheck(checkHistoryQuery)),
    headers: conditionalHeaders,
  },
  responses: {
    200: {
      description: 'One page of the telemetry history',
      headers: validatorHeadersSchema,
      content: {'application/json': {schema: TelemetryHistorySchema}},
    },
    304: notModified,
    ...errorResponses(401, 404, 422),
  },
})

/**
 * GET /shipments/{shipment_id}/unified, the batch GET/POST /shipments/unified and a page of a shipment's history,
 * GET /shipments/{shipment_id}/telemetry, each answer with its ETag (304 to a GET that holds it). Errors are thrown
 * as the core taxonomy for the app's error handler: not_found 404, unavailable 503 with Retry-After, a malformed id
 * or history bound marked 400 (too many ids 413 or 414), a stored document nested too deep to serve 422. With a
 * registry, lookups and store latencies are counted on it.
 */
export function shipmentRoutes(
  services: ShipmentRouteServices,
  options: {registry?: Registry; events?: ShipmentEventOptions} = {},
) {
  if (options.registry) services.shipments.addMetrics(createShipmentMetrics(options.registry))
  const hook = refusalHook(services.shipments)
  const routes = new OpenAPIHono({defaultHook: hook})
  const batch = (ids: readonly string[], tooMany: 413 | 414) =>
    services.shipments.unifiedBatch(ids).catch((error: unknown) => {
      throw error instanceof TooManyIdsError ? withHttpStatus(error, tooMany) : markMalformedId(error)
    })
  // In the order the OpenAPI document lists them.
  return (
    routes
      .openapi(unifiedState, async (c) => {
        const state = await services.shipments.unified(c.req.valid('param').shipment_id).catch(markMalformedId)
        return jsonWithValidators(c, state, stateVersion(state))
      })
      .openapi(batchGet, async (c) => {
        const answer = await batch(splitIds(c.req.valid('query').ids), 414)
        return jsonWithValidators(c, answer, batchVersion(answer))
      })
      .openapi(telemetryHistory, async (c) => {
        const answer = await services.shipments
          .history(c.req.valid('param').shipment_id, c.req.valid('query'))
          .catch(markMalformedId)
        return jsonWithValidators(c, answer, historyVersion(answer))
      })
      .openapi(batchPost, async (c) => {
        // A POST is no conditional request (If-None-Match is for reads); its answer still names its version.
        const answer = await batch(c.req.valid('json').ids, 413)
        return c.json(answer, 200, validatorHeaders(batchVersion(answer)))
      })
      // GET /shipments/{shipment_id}/unified/events: src/shipments/http/shipment-events.ts
      .route(
        '/',
        shipmentEventRoutes(
          services.shipments,
          {params: ShipmentIdParam, markMalformedId, hook},
          {...options.events, ...(options.registry ? {registry: options.registry} : {})},
        ),
      )
      // The router matches no empty segment, so `/shipments//unified` would be a bare 404; the service refuses the
      // empty id as malformed, in the words of the id's schema.
      .get('/shipments//unified', async (c) => c.json(await services.shipments.unified('').catch(markMalformedId)))
      .get('/shipments//telemetry', async (c) => c.json(await services.shipments.history('').catch(markMalformedId)))
  )
}

/** The ids of the query string: each `ids` parameter a comma-separated list. */
function splitIds(ids: string | readonly string[]): string[] {
  return (typeof ids === 'string' ? [ids] : ids).flatMap((list) => list.split(','))
}

type ValidationResult = {success: boolean; target: string; error?: {issues: readonly z.core.$ZodIssue[]}}

/**
 * How the shipment routes answer a request their schemas refuse: with the core's own error where a core check
 * refused it (400; too many ids 413 in a body, 414 in a query string), else with the API's validation error, also
 * 400. The id is named before the query, as the service checks it first. A refused id or query counts as an
 * invalid lookup, as the service counts its own refusals; a body that is no `{"ids": [...]}` is no lookup.
 */
function refusalHook(shipments: ShipmentService) {
  return (result: ValidationResult, c?: Context): void => {
    if (result.success || !result.error) return
    const id = result.target === 'query' ? c?.req.param('shipment_id') : undefined
    if (id !== undefined) refusalHook(shipments)({...ShipmentIdParam.safeParse({shipment_id: id}), target: 'param'})
    const refused = result.error.issues
      .map((issue) => (issue.code === 'custom' ? issue.params?.refusal : undefined))
      .find((error) => error instanceof ValidationError)
    if (refused || result.target !== 'json') shipments.countInvalid()
    if (refused instanceof TooManyIdsError) throw withHttpStatus(refused, result.target === 'json' ? 413 : 414)
    if (refused) throw withHttpStatus(refused, 400)
    try {
      validationHook(result)
    } catch (error) {
      throw error instanceof ValidationError ? withHttpStatus(error, 400) : error
    }
  }
}

/** Every shipment's version and the missing ids; Last-Modified is the latest document's time among them. */
function batchVersion(answer: UnifiedBatch) {
  const versions = answer.shipments.map(stateVersion)
  const times = versions.flatMap((version) => (version.lastModified === undefined ? [] : [version.lastModified]))
  return {
    parts: [...versions.map((version) => version.parts), answer.missing],
    lastModified: times.length > 0 ? Math.max(...times) : undefined,
  }
}

/** A page of history is made of its documents alone; Last-Modified is the time of its newest (last) one. */
function historyVersion(answer: TelemetryHistory) {
  const last = answer.telemetry[answer.telemetry.length - 1]
  return {parts: [answer], lastModified: last ? Date.parse(last.recorded_at) : undefined}
}

/** The query parameters whose bad values are a bad request, as a malformed id is. */
const REQUEST_FIELDS = new Set(['shipment_id', 'ids', 'since', 'until', 'limit', 'cursor'])

/** A malformed id or history bound is a bad request (400); a stored document the service will not serve stays 422. */
function markMalformedId(error: unknown): never {
  const field = error instanceof ValidationError ? error.details[0]?.field : undefined
  const malformed = (field !== undefined && REQUEST_FIELDS.has(field)) || field?.startsWith('ids[')
  throw malformed ? withHttpStatus(error as ValidationError, 400) : error
}
