// Median and spread of repeated samples: one run of anything on a shared 2-core machine says little.

/** The q-quantile with linear interpolation between the two nearest ranks. */
export function quantile(values, q) {
  if (values.length === 0) throw new Error('no samples')
  const sorted = [...values].sort((a, b) => a - b)
  const position = (sorted.length - 1) * q
  const below = Math.floor(position)
  const above = Math.ceil(position)
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below)
}

export function median(values) {
  return quantile(values, 0.5)
}

/** Median, min-max and interquartile range of the samples. */
export function summarize(samples) {
  return {
    samples,
    median: median(samples),
    spread: {
      min: Math.min(...samples),
      max: Math.max(...samples),
      p25: quantile(samples, 0.25),
      p75: quantile(samples, 0.75),
    },
  }
}
