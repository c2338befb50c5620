import {createRoute, OpenAPIHono, z} from '@hono/zod-openapi'
import type {Registry} from 'prom-client'
import {createShipmentMetrics} from '../../app/shipment-metrics.js'
import {ValidationError} from '../../core/errors.js'
import {MAX_SHIPMENT_ID_LENGTH} from '../../core/shipments/shipment-id.js'
import type {ShipmentService} from '../../core/shipments/shipment-service.js'
import {withHttpStatus} from '../errors.js'
import {errorResponses} from '../schemas.js'

/** What the route needs: the shipment service, built lazily by the application context. */
interface ShipmentRouteServices {
  readonly shipments: ShipmentService
}

const isoTime = z.string().openapi({example: '2026-04-10T00:28:23.000Z'})

const UnifiedStateSchema = z
  .object({
    shipment_id: z.string().openapi({example: 'SHP-1001'}),
    metadata: z.record(z.string(), z.unknown()).openapi({
      description: 'Every column of the metadata row',
      example: {shipment_id: 'SHP-1001', origin: 'Rotterdam', destination: 'Hamburg', carrier: 'Nordline'},
    }),
    telemetry: z
      .object({
        recorded_at: isoTime,
        payload: z.record(z.string(), z.unknown()).openapi({
          description: 'The latest document without its id, time and store-internal fields',
          example: {lat: 53.54, lon: 9.98, temperature_c: 4.1},
        }),
      })
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

// Checked by the service (the same rules and messages as the CLI); the schema documents them.
const ShipmentIdParam = z.object({
  shipment_id: z.string().openapi({
    param: {name: 'shipment_id', in: 'path'},
    minLength: 1,
    maxLength: MAX_SHIPMENT_ID_LENGTH,
    description: `1 to ${MAX_SHIPMENT_ID_LENGTH} characters, no control characters; percent-encode / and other reserved characters`,
    example: 'SHP-1001',
  }),
})

const unifiedState = createRoute({
  method: 'get',
  path: '/shipments/{shipment_id}/unified',
  tags: ['shipments'],
  summary: 'Metadata and latest telemetry of one shipment, merged',
  description:
    'Reads the metadata row and the latest telemetry document concurrently, each store within its timeout. ' +
    'No telemetry yet is 200 with telemetry null and stale true; a store that fails or is slow is 503 with Retry-After.',
  request: {params: ShipmentIdParam},
  responses: {
    200: {description: 'The unified state', content: {'application/json': {schema: UnifiedStateSchema}}},
    ...errorResponses(400, 401, 404, 422, 503),
  },
})

/**
 * GET /shipments/{shipment_id}/unified. Errors are thrown as the core taxonomy for the app's error handler:
 * not_found 404, unavailable 503 with Retry-After, the malformed id marked 400, and a stored document nested too
 * deep to serve 422. With a registry, lookups and store latencies are counted on it.
 */
export function shipmentRoutes(services: ShipmentRouteServices, options: {registry?: Registry} = {}) {
  if (options.registry) services.shipments.addMetrics(createShipmentMetrics(options.registry))
  const routes = new OpenAPIHono()
  // Documented by the route definition, checked by the service (its rules and messages are the CLI's): a
  // validator middleware here would only repeat that check on the API's hottest read.
  routes.openAPIRegistry.registerPath(unifiedState)
  const unified = (id: string) => services.shipments.unified(id).catch(markMalformedId)
  return (
    routes
      .get('/shipments/:shipment_id/unified', async (c) => c.json(await unified(c.req.param('shipment_id')), 200))
      // The router matches no empty segment, so `/shipments//unified` would be a bare 404; it is a malformed id.
      .get('/shipments//unified', async (c) => c.json(await unified('')))
  )
}

/** A malformed id is a bad request (400); a stored document the service will not serve stays 422. */
function markMalformedId(error: unknown): never {
  const malformed = error instanceof ValidationError && error.details[0]?.field === 'shipment_id'
  throw malformed ? withHttpStatus(error, 400) : error
}
