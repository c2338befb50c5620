// Compares figures with those of an earlier run (`node bench/run.js --compare <file>`). Only figures present in both
// are compared, so a subset run compares its subset.

/** A figure more than this much worse than before is a regression. */
export const REGRESSION_THRESHOLD = 0.2

/**
 * Per figure id: the judged quantity before and after, its relative change and whether that is a regression.
 * The ratio to the same-run baseline is judged when both runs have one against the same baseline (it cancels
 * machine load), else the median; `better` gives the direction (lower req/s is worse, higher latency is worse).
 */
export function compareFigures(current, previous) {
  const earlier = new Map(previous.map((figure) => [figure.id, figure]))
  const rows = new Map()
  for (const figure of current) {
    const old = earlier.get(figure.id)
    if (!old) continue
    const byRatio =
      typeof figure.ratio === 'number' && typeof old.ratio === 'number' && figure.baseline?.id === old.baseline?.id
    const before = byRatio ? old.ratio : old.median
    const after = byRatio ? figure.ratio : figure.median
    const change = before === 0 ? (after === 0 ? 0 : Math.sign(after)) : (after - before) / before
    const worseBy = figure.better === 'higher' ? -change : change
    const beyondResolution = byRatio || Math.abs(after - before) > (figure.resolution ?? 0)
    rows.set(figure.id, {
      judged: byRatio ? 'ratio' : 'median',
      before,
      after,
      change,
      regressed: figure.role !== 'baseline' && worseBy > REGRESSION_THRESHOLD && beyondResolution,
    })
  }
  return rows
}

export function formatChange(row) {
  const percent = Math.round(row.change * 100)
  return `${percent > 0 ? '+' : ''}${percent}%${row.judged === 'ratio' ? ' of ratio' : ''}${row.regressed ? ' REGRESSED' : ''}`
}
