// A seeded PRNG (mulberry32): the ids a load test asks for are the same sequence on every run, so two runs differ
// only in the code under test, not in which rows happened to be hot.

export function seededRandom(seed) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** An integer in [0, count). */
export function randomIndex(random, count) {
  return Math.floor(random() * count)
}
