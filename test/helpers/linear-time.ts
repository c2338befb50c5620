/**
 * Timing checks that hold on a busy machine. A time alone says little when other work shares the cores; how the
 * time grows with the input says whether the work is linear: eight times the input takes about eight times as
 * long when it is, sixty-four times when it is quadratic.
 */

/** The milliseconds `run` takes, the best of `times` runs: the one the machine's other work disturbed least. */
export function bestTime(run: () => unknown, times = 3): number {
  let best = Number.POSITIVE_INFINITY
  for (let attempt = 0; attempt < times; attempt++) {
    const started = performance.now()
    run()
    best = Math.min(best, performance.now() - started)
  }
  return best
}

/**
 * How many times longer `run` takes on `large` than on `small` (each built before its timing starts), when `large`
 * is `factor` times the size of `small`. Below the geometric mean of the linear and the quadratic growth, the work is
 * linear: for eight times the input, under 22. A garbage collection or another process can land in one timing and
 * push a linear scan over that line, never three times running; a quadratic one stays above it every time, so the
 * growth is measured up to three times and the smallest one returned.
 */
export function timeGrowth<T>(run: (input: T) => unknown, small: T, large: T, factor = 8): number {
  // A first run compiles the code, so neither timing pays for it.
  run(small)
  let smallest = Number.POSITIVE_INFINITY
  for (let attempt = 0; attempt < 3 && smallest >= linearBound(factor); attempt++) {
    const smallTime = Math.max(
      bestTime(() => run(small)),
      1,
    )
    smallest = Math.min(smallest, bestTime(() => run(large), 2) / smallTime)
  }
  return smallest
}

/** The growth a linear scan stays under when its input is `factor` times larger: between factor and factor². */
export const linearBound = (factor: number) => factor ** 1.5
