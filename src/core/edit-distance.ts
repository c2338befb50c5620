/**
 * Edit distance in which swapping two neighbouring letters counts as one edit (optimal string alignment), so
 * `stauts` is as close to `status` as `statu` is.
 */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({length: a.length + 1}, (_, i) =>
    Array.from({length: b.length + 1}, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      const row = rows[i] as number[]
      const above = rows[i - 1] as number[]
      let best = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1)
      }
      row[j] = best
    }
  }
  return (rows[a.length] as number[])[b.length] as number
}

/** How far a typed word may be from the word meant and still read as a typo: 1 edit up to 3 letters, 2 up to 6, 3 beyond. */
export function typoAllowance(length: number): number {
  return length <= 3 ? 1 : length <= 6 ? 2 : 3
}

/**
 * The known word nearest to what was typed (in any case) when it is within `allowed` edits. Of two as near, the
 * longer wins: an unfinished word or a dropped letter is a commoner slip than an extra one (`statu` and `stauts`
 * are `status`, though each is one edit from `stats` too). A word whose length differs from a known one's by more
 * than `allowed` is never within reach of it, so it is not measured: text from outside costs no more than its length.
 */
export function nearestWord(
  typed: string,
  known: readonly string[],
  allowed = typoAllowance(typed.length),
): string | undefined {
  const lower = typed.toLowerCase()
  let closest: string | undefined
  let closestDistance = Number.POSITIVE_INFINITY
  for (const candidate of known) {
    if (Math.abs(candidate.length - lower.length) > allowed) continue
    const distance = editDistance(lower, candidate)
    const longerTie = distance === closestDistance && candidate.length > (closest?.length ?? 0)
    if (distance < closestDistance || longerTie) {
      closest = candidate
      closestDistance = distance
    }
  }
  return closestDistance <= allowed ? closest : undefined
}
