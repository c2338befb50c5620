import {Histogram, Registry} from 'prom-client'
import {describe, expect, it} from 'vitest'
import {LeanHistogram} from '../../src/app/lean-histogram.js'

const BUCKETS = [0.001, 0.01, 0.1, 1]
const OBSERVATIONS: [string, string, number][] = [
  ['GET', '/a', 0.0005],
  ['GET', '/a', 0.001],
  ['GET', '/a', 0.05],
  ['GET', '/a', 3],
  ['POST', '/b', 0.7],
  ['POST', '/b', 0.01],
]

describe('LeanHistogram', () => {
  it('is exposed exactly like prom-client exposes its own histogram of the same observations', async () => {
    // Given a prom-client histogram and a lean one with the same name, labels and buckets on two registries
    const reference = new Registry()
    const lean = new Registry()
    const expected = new Histogram({
      name: 'x_seconds',
      help: 'h',
      labelNames: ['m', 'r'],
      buckets: BUCKETS,
      registers: [reference],
    })
    const histogram = new LeanHistogram('x_seconds', 'h', ['m', 'r'], BUCKETS, lean)
    // When both observe the same values, including values equal to a bound and above the largest one
    for (const [method, route, seconds] of OBSERVATIONS) {
      expected.labels(method, route).observe(seconds)
      histogram.labels(method, route).observe(seconds)
    }
    // Then the exposition text is the same, line for line
    expect(await lean.metrics()).toBe(await reference.metrics())
    expect(await lean.metrics()).toContain('x_seconds_bucket{le="0.001",m="GET",r="/a"} 2')
  })

  it('keeps counting through the children it handed out after a reset, and ignores values that are no number', async () => {
    const registry = new Registry()
    const histogram = new LeanHistogram('y_seconds', 'h', ['m'], BUCKETS, registry)
    const child = histogram.labels('GET')
    expect(histogram.labels('GET')).toBe(child)
    child.observe(0.5)
    registry.resetMetrics()
    child.observe(0.002)
    child.observe(Number.NaN)
    const text = await registry.metrics()
    expect(text).toContain('y_seconds_count{m="GET"} 1')
    expect(text).toContain('y_seconds_sum{m="GET"} 0.002')
    expect(text).toContain('y_seconds_bucket{le="0.01",m="GET"} 1')
  })

  it('refuses a label set of the wrong size, naming the histogram', () => {
    const histogram = new LeanHistogram('z_seconds', 'h', ['m', 'r'], BUCKETS, new Registry())
    expect(() => histogram.labels('GET')).toThrow('z_seconds takes 2 label values, got 1')
  })
})
