// A figure is one measured quantity with its samples, median and spread, and, where the issue names one, its ratio
// to a baseline measured in the same run and its target. Same-run ratios are what targets and comparisons judge
// when there is a baseline: background load on the shared machine slows both alike.
import {summarize} from './stats.js'

const TEXT_OF_OP = {'<': '<', '<=': '<=', '>=': '>='}

/**
 * `better` is the direction of an improvement: 'higher' for request rates, 'lower' for times, latencies and memory.
 * `target` is `{of: 'ratio' | 'median', op: '<' | '<=' | '>=', limit}`. `resolution` is the measuring granularity
 * in the figure's unit (autocannon latencies are whole milliseconds): a change no larger is never a regression.
 * `role: 'baseline'` marks the yardsticks (`node -e 0`, bare node:http): reported, never judged.
 */
export function figure({id, name, unit, better, samples, baseline, target, resolution = 0, role}) {
  const stats = summarize(samples)
  const ratio = baseline ? stats.median / baseline.median : null
  const judged = target?.of === 'ratio' ? ratio : stats.median
  return {
    id,
    name,
    unit,
    better,
    ...stats,
    baseline: baseline ? {id: baseline.id, name: baseline.name, median: baseline.median} : null,
    ratio,
    target: target ? {...target, text: targetText(target, unit)} : null,
    pass: target ? meets(judged, target) : null,
    resolution,
    role: role ?? null,
  }
}

function meets(value, {op, limit}) {
  if (op === '<') return value < limit
  if (op === '<=') return value <= limit
  return value >= limit
}

function targetText({of, op, limit}, unit) {
  return of === 'ratio' ? `${TEXT_OF_OP[op]} ${limit.toFixed(2)}x` : `${TEXT_OF_OP[op]} ${formatValue(limit, unit)}`
}

export function formatNumber(value, unit) {
  if (unit === 'req/s' || Math.abs(value) >= 10) return Math.round(value).toLocaleString('en')
  return String(Number(value.toFixed(1)))
}

export function formatValue(value, unit) {
  return unit === 'count' ? formatNumber(value, unit) : `${formatNumber(value, unit)} ${unit}`
}

export function formatSpread({spread, samples, unit}) {
  return `${formatNumber(spread.min, unit)}–${formatNumber(spread.max, unit)} (n=${samples.length})`
}

export function verdict(figure) {
  if (figure.role === 'baseline') return 'baseline'
  if (figure.pass === null) return 'reported'
  return figure.pass ? 'PASS' : 'FAIL'
}
