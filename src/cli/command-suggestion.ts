/**
 * Edit distance in which swapping two neighbouring letters counts as one edit (optimal string alignment), so
 * `stauts` is as close to `status` as `statu` is.
 */
function editDistance(a: string, b: string): number {
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

/**
 * The known command nearest to what was typed (words separated by spaces), when it is near enough to be a typo:
 * one edit when the last typed word has up to three letters, two up to six, three beyond. Measured on the last
 * word so that `x` does not become `ui`, nor `config foo` become `config get`. Of two commands as near, the longer
 * wins: an unfinished word or a dropped letter is a commoner slip than an extra one (`statu` and `stauts` are
 * `status`, though each is one edit from `stats` too).
 */
export function closestCommand(typed: string, known: readonly string[]): string | undefined {
  const lastWord = typed.split(' ').at(-1) ?? ''
  const allowed = lastWord.length <= 3 ? 1 : lastWord.length <= 6 ? 2 : 3
  let closest: string | undefined
  let closestDistance = Number.POSITIVE_INFINITY
  for (const candidate of known) {
    const distance = editDistance(typed.toLowerCase(), candidate)
    const longerTie = distance === closestDistance && candidate.length > (closest?.length ?? 0)
    if (distance < closestDistance || longerTie) {
      closest = candidate
      closestDistance = distance
    }
  }
  return closestDistance <= allowed ? closest : undefined
}
