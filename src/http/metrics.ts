import cluster from 'node:cluster'
import {Counter, collectDefaultMetrics, Histogram, Registry} from 'prom-client'
import type {SearchResult} from '../core/jobs/search-result.js'

export interface HttpMetrics {
  /** A registry of this app only, so several apps (tests) never collide; other modules register on it too. */
  readonly registry: Registry
  /**
   * The text exposition; without `names` the source errors are one sum, not a series per board: the names of the
   * boards searched say which companies the person wants to work for.
   */
  exposition(options: {names: boolean}): Promise<string>
  observeRequest(method: string, route: string, status: number, seconds: number): void
  /** Counts a search once, however many requests shared it. */
  countSearch(result: SearchResult): void
  countApplicationRecorded(): void
}

const SOURCE_ERRORS = 'jobagent_source_errors_total'

/** Request latencies of a local API are mostly well under 10 ms, so the buckets start at half a millisecond. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export function createHttpMetrics(): HttpMetrics {
  const registry = new Registry()
  // Under `serve --workers` each scrape is answered by one worker: its series say which (docs/API.md).
  const labels: Record<string, string> = cluster.worker ? {worker: String(cluster.worker.id)} : {}
  registry.setDefaultLabels(labels)
  collectDefaultMetrics({register: registry})
  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duration of HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  })
  const searches = new Counter({
    name: 'jobagent_searches_total',
    help: 'Job searches run by GET /jobs',
    registers: [registry],
  })
  const jobsFound = new Counter({
    name: 'jobagent_jobs_found_total',
    help: 'Jobs found by those searches, after filters and deduplication',
    registers: [registry],
  })
  const sourceErrors = new Counter({
    name: SOURCE_ERRORS,
    help: 'Job boards that failed during a search, by source',
    labelNames: ['source'] as const,
    registers: [registry],
  })
  const applicationsRecorded = new Counter({
    name: 'jobagent_applications_recorded_total',
    help: 'Applications recorded through POST /applications and POST /jobs/track',
    registers: [registry],
  })
  const counted = new WeakSet<SearchResult>()

  return {
    registry,
    async exposition({names}) {
      if (names) return registry.metrics()
      const texts = await Promise.all(
        registry
          .getMetricsAsArray()
          .map((metric) =>
            metric.name === SOURCE_ERRORS
              ? countWithoutNames(sourceErrors, labels)
              : registry.getSingleMetricAsString(metric.name),
          ),
      )
      // The layout of Registry.metrics() for the Prometheus text format.
      return `${texts.join('\n\n')}\n`
    },
    observeRequest(method, route, status, seconds) {
      requestDuration.observe({method, route, status}, seconds)
    },
    countSearch(result) {
      if (counted.has(result)) return
      counted.add(result)
      searches.inc()
      jobsFound.inc(result.jobs.length)
      for (const source of result.sources) if (!source.ok) sourceErrors.inc({source: source.name})
    },
    countApplicationRecorded() {
      applicationsRecorded.inc()
    },
  }
}

/** A labelled counter as one sample: the sum of its series. */
async function countWithoutNames(counter: Counter<string>, labels: Record<string, string>): Promise<string> {
  const {name, help, values} = await counter.get()
  const total = values.reduce((sum, sample) => sum + sample.value, 0)
  const set = Object.entries(labels).map(([label, value]) => `${label}="${value}"`)
  const series = set.length > 0 ? `${name}{${set.join(',')}}` : name
  return `# HELP ${name} ${help}\n# TYPE ${name} counter\n${series} ${total}`
}
