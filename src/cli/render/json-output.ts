import {escapeJsonControls} from '../../core/control-characters.js'

/** How much text is gathered before it is written: few writes, and never the whole document at once. */
const PIECE_CHARS = 64 * 1024

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  typeof (value as {toJSON?: unknown}).toJSON !== 'function' &&
  (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
const isOmitted = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol'

/** Text handed on in pieces of about PIECE_CHARS, controls escaped. */
class PieceWriter {
  private pending = ''

  constructor(private readonly write: (text: string) => void) {}

  add(text: string): void {
    this.pending += text
    if (this.pending.length >= PIECE_CHARS) this.flush()
  }

  flush(): void {
    if (this.pending !== '') this.write(escapeJsonControls(this.pending))
    this.pending = ''
  }
}

/** `value` as JSON.stringify(value, null, 2) writes it at this indent: one string, each line after the first indented. */
function stringified(value: unknown, indent: string): string {
  const text = JSON.stringify(value, null, 2) ?? 'null'
  return indent === '' || !text.includes('\n') ? text : text.replaceAll('\n', `\n${indent}`)
}

/**
 * The document's top-level object and its arrays, however nested, are written entry by entry; every other value
 * (each job of a list, say) is stringified whole. A large document is large by its lists, so no piece is more
 * than one entry of a list.
 */
function writeValue(value: unknown, indent: string, out: PieceWriter, topLevel: boolean): void {
  const inner = `${indent}  `
  if (Array.isArray(value) && value.length > 0) {
    for (let index = 0; index < value.length; index++) {
      out.add(`${index === 0 ? '[' : ','}\n${inner}`)
      const item: unknown = value[index]
      writeValue(isOmitted(item) ? null : item, inner, out, false)
    }
    out.add(`\n${indent}]`)
    return
  }
  if (topLevel && isPlainObject(value)) {
    let first = true
    for (const key of Object.keys(value)) {
      const item = value[key]
      if (isOmitted(item)) continue
      out.add(`${first ? '{' : ','}\n${inner}${JSON.stringify(key)}: `)
      first = false
      writeValue(item, inner, out, false)
    }
    out.add(first ? '{}' : `\n${indent}}`)
    return
  }
  out.add(stringified(value, indent))
}

/**
 * Writes `value` as indented JSON and a line break, the same text as `JSON.stringify(value, null, 2)` with its
 * controls escaped, in pieces of about 64 K characters: a run's summary of thousands of jobs is never held as one
 * string (and again escaped, and again as the bytes written) beside the data it was made from.
 */
export function writeJson(value: unknown, write: (text: string) => void): void {
  const out = new PieceWriter(write)
  writeValue(value, '', out, true)
  out.add('\n')
  out.flush()
}
