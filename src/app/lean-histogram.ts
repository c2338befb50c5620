import type {Metric, Registry} from 'prom-client'

export interface HistogramChild {
  observe(seconds: number): void
}

/** One sample as prom-client's registry formats it. */
interface Sample {
  metricName: string
  labels: Record<string, string | number>
  value: number
}

interface Series {
  readonly labels: Readonly<Record<string, string>>
  /** Observations per bucket (not cumulative); the last slot counts those above the largest bound. */
  readonly counts: Float64Array
  sum: number
  count: number
}

/** One level of the label lookup: a node per value of the label at that depth, the entry at the last one. */
interface LabelNode {
  readonly next: Map<string, LabelNode>
  entry?: Entry
}

interface Entry {
  readonly series: Series
  /** Handed out by every labels() call for this label set, so callers need no cache of their own. */
  readonly child: HistogramChild
}

/**
 * A Prometheus histogram for what is observed on every request, registered on a prom-client Registry, which
 * exposes it like its own histograms. prom-client's Histogram validates and hashes the label values and allocates
 * on each observation, even through a child from `labels()`; a shipment lookup observes three times, and this
 * class served it 3-4% more requests per second (docs/BENCHMARKS.md, 2026-11-23). Here a label set is resolved
 * once, by `labels()`, and an observation is a bucket search and three additions.
 */
export class LeanHistogram<Label extends string> {
  readonly type = 'histogram'
  readonly aggregator = 'sum'
  private readonly entries: Entry[] = []
  /** Label values are looked up one map per label: no key is built per observation. */
  private readonly root: LabelNode = {next: new Map()}
  private readonly upperBounds: readonly number[]

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly Label[],
    buckets: readonly number[],
    registry: Registry,
  ) {
    this.upperBounds = [...buckets].sort((a, b) => a - b)
    // The registry asks a metric only for its name, type, help and get(); this class answers all four.
    registry.registerMetric(this as unknown as Metric)
  }

  /** The child of one label set, values in the order of the label names: a map lookup per label, then additions. */
  labels(...values: string[]): HistogramChild {
    if (values.length !== this.labelNames.length) {
      throw new Error(`${this.name} takes ${this.labelNames.length} label values, got ${values.length}`)
    }
    let node = this.root
    for (const value of values) {
      let next = node.next.get(value)
      if (!next) {
        next = {next: new Map()}
        node.next.set(value, next)
      }
      node = next
    }
    if (!node.entry) {
      node.entry = this.createEntry(values)
      this.entries.push(node.entry)
    }
    return node.entry.child
  }

  private createEntry(values: readonly string[]): Entry {
    const labels = Object.fromEntries(this.labelNames.map((name, index) => [name, values[index] ?? '']))
    const series: Series = {labels, counts: new Float64Array(this.upperBounds.length + 1), sum: 0, count: 0}
    const bounds = this.upperBounds
    const child: HistogramChild = {
      observe(seconds) {
        // A clock difference is always finite; anything else would only poison the sum.
        if (!Number.isFinite(seconds)) return
        let bucket = 0
        while (bucket < bounds.length && seconds > (bounds[bucket] as number)) bucket++
        series.counts[bucket] = (series.counts[bucket] as number) + 1
        series.sum += seconds
        series.count++
      },
    }
    return {series, child}
  }

  /** The samples in prom-client's shape: cumulative `_bucket` series with `le`, then `_sum` and `_count`. */
  get(): {name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: Sample[]} {
    const values: Sample[] = []
    for (const {series} of this.entries) {
      let cumulative = 0
      this.upperBounds.forEach((bound, index) => {
        cumulative += series.counts[index] as number
        values.push({metricName: `${this.name}_bucket`, labels: {le: bound, ...series.labels}, value: cumulative})
      })
      values.push({metricName: `${this.name}_bucket`, labels: {le: '+Inf', ...series.labels}, value: series.count})
      values.push({metricName: `${this.name}_sum`, labels: {...series.labels}, value: series.sum})
      values.push({metricName: `${this.name}_count`, labels: {...series.labels}, value: series.count})
    }
    return {name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values}
  }

  /** Zeroes every series in place, so the children handed out keep counting into the registry. */
  reset(): void {
    for (const {series} of this.entries) {
      series.counts.fill(0)
      series.sum = 0
      series.count = 0
    }
  }
}
