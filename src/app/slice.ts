import type {Hono} from 'hono'
import type {Registry} from 'prom-client'
import type * as ZodMini from 'zod/mini'
import type {Logger} from '../core/logger.js'
import type {Clock} from '../core/time.js'
import type {HealthCheck} from './health-checks.js'

/** The environment variables of the process, as config.ts reads them. */
type Variables = Readonly<Record<string, string | undefined>>

/** What a slice's service is built from: its own config section and the context's shared parts. */
interface SliceContext<Config> {
  config: Config
  logger: Logger
  clock: Clock
  /** Runs `close` when the context closes: the pools and files the service opened. */
  closeWith(close: () => void | Promise<void>): void
}

/** The module that builds a slice's service, loaded on first use. */
export interface SliceWiring<Config, Service> {
  createService(context: SliceContext<Config>): Service
}

/** What the app mounts a slice's routes with. */
interface SliceRouteOptions<Settings> {
  /** The app's registry: the slice's metrics are served at GET /metrics beside the app's. */
  registry: Registry
  logger: Logger
  /** Aborted when the server shuts down: long-lived answers (event streams) end at once instead of holding it. */
  closing?: AbortSignal
  /** What the app's caller sets for this slice over its config section (tests shorten its intervals). */
  settings?: Settings
}

/**
 * The HTTP half of a slice, loaded by the server only: the service built at once (the app mounts its routes
 * synchronously), the GET /health entries and the routes with their OpenAPI entries. The routes map their errors
 * onto the app's one error handler with withHttpStatus (src/http/errors.ts).
 */
export interface SliceHttp<Config, Service, Settings> extends SliceWiring<Config, Service> {
  /**
   * Read on every GET /health; `service` builds the service on its first call. `alone`: the slice is all the server
   * serves (`serve --only`), so its checks always run.
   */
  healthChecks(service: () => Service, config: Config, where: {dataDir: string; alone: boolean}): HealthCheck[]
  /**
   * An OpenAPIHono router, mounted at / after the job side's routes: the OpenAPI document lists its routes there.
   * Typed as the Hono its chained routes return.
   */
  routes(service: Service, config: Config, options: SliceRouteOptions<Settings>): Hono
}

/**
 * A feature that plugs into jobagent at this one seam: its section of config.json, its service and, for the
 * server, its routes and health checks. The job side's wiring (config, AppContext, the HTTP services and app)
 * iterates the list in slices.ts and imports no module of a slice; the slice's own commands reach its service
 * with AppContext.openSlice. Both halves load on first use, so a command that never uses a slice does not load it.
 */
export interface Slice<Key extends string, Section, Config, Service, Settings> {
  /** The key of its section in config.json. */
  readonly key: Key
  /** The schema of that section, written with config-section.ts; parsed, it is a Section. */
  readonly configSection: ZodMini.ZodMiniType
  /** The section's JOBAGENT_* variables, shaped like the section: they win over the file, flags over them. */
  environment(env: Variables): Record<string, unknown>
  /** The parsed section with the defaults only the paths know, such as a database in the data directory. */
  withPaths(section: Section, paths: {dataDir: string}): Config
  loadWiring(): Promise<SliceWiring<Config, Service>>
  loadHttp(): Promise<SliceHttp<Config, Service, Settings>>
}

/** Any slice, for the wiring that iterates the list. */
export type AnySlice = Slice<string, never, unknown, unknown, never>

/** A slice's HTTP half bound to one context: what createHttpApp mounts. */
export interface MountedSlice<Settings = never> {
  readonly key: string
  healthChecks(): HealthCheck[]
  routes(options: SliceRouteOptions<Settings>): Hono
}
