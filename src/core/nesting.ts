/**
 * How deeply a document from outside (a board's JSON or XML) may nest. Real boards nest five or six levels; a
 * parser given 10 MB of `[[[[...` builds millions of objects (hundreds of MB) before anyone looks at them.
 */
export const MAX_NESTING_DEPTH = 100

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d

/** The index of the quote that ends the JSON string whose opening quote is at `start`; -1 when it never ends. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1)
  while (end !== -1) {
    // Escaped when an odd number of backslashes stands before it.
    let backslashes = 0
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return end
    end = text.indexOf('"', end + 1)
  }
  return -1
}

/**
 * True when JSON text opens more than `limit` arrays or objects inside each other, read without building
 * anything: one pass over the structure, each string skipped by a search for its closing quote (a board's answer
 * is mostly strings: descriptions of several KB). Malformed text is left to JSON.parse to report.
 */
export function jsonNestsDeeperThan(text: string, limit: number = MAX_NESTING_DEPTH): boolean {
  let depth = 0
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code === QUOTE) {
      index = stringEnd(text, index)
      if (index === -1) return false
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > limit) return true
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth--
    }
  }
  return false
}

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
