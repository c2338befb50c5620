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

/**
 * True when JSON text opens more than `limit` arrays or objects inside each other, read without building
 * anything: one pass over the characters that skips strings. Malformed text is left to JSON.parse to report.
 */
export function jsonNestsDeeperThan(text: string, limit: number = MAX_NESTING_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === BACKSLASH) index++
      else if (code === QUOTE) inString = false
    } else if (code === QUOTE) {
      inString = true
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > limit) return true
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth--
    }
  }
  return false
}
