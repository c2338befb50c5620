/**
 * Whether a parsed JSON value nests objects and arrays more than `limit` levels deep (the value itself is level
 * 1). Walked with a list rather than by recursion, so a document a million levels deep is measured, not a stack
 * overflow; the walk stops at the first branch past the limit.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: {value: unknown; depth: number}[] = [{value, depth: 1}]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const current = next.value
    if (typeof current !== 'object' || current === null) continue
    if (next.depth > limit) return true
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === 'object' && child !== null) pending.push({value: child, depth: next.depth + 1})
    }
  }
  return false
}
