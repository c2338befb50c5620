/**
 * Characters that drive a terminal or reorder text instead of showing as text: the C0 controls, DEL and the C1
 * controls (ESC starts every escape sequence: colours, OSC 8 hidden links, OSC 0 window titles, clear-screen;
 * U+009B is an 8-bit CSI), and the bidirectional embeddings, overrides and isolates (U+202A-U+202E,
 * U+2066-U+2069) that make text display in another order than it is stored ("Trojan Source").
 * The marks U+200E, U+200F and U+061C are not among them: they reorder nothing beyond the neutral character next
 * to them and are common in right-to-left names.
 */
const CONTROLS = '\\u0000-\\u001f\\u007f-\\u009f'
const BIDI = '\\u202a-\\u202e\\u2066-\\u2069'

const ANY = new RegExp(`[${CONTROLS}${BIDI}]`)
const EVERY = new RegExp(`[${CONTROLS}${BIDI}]`, 'g')
/** Line breaks and tabs are kept where text may span lines; a CR only as part of CRLF (alone it overwrites a line). */
const EVERY_BUT_LINE_BREAKS = new RegExp(
  `\\r(?!\\n)|[\\u0000-\\u0008\\u000b-\\u000c\\u000e-\\u001f\\u007f-\\u009f${BIDI}]`,
  'g',
)
const BIDI_EVERY = new RegExp(`[${BIDI}]`, 'g')
/** What JSON.stringify leaves as it is: DEL, C1 and the bidi controls (it escapes C0 itself). */
const JSON_UNESCAPED = new RegExp(`[\\u007f-\\u009f${BIDI}]`, 'g')

const NAMED: Record<string, string> = {'\n': '\\n', '\r': '\\r', '\t': '\\t'}

function hex(character: string, digits: number): string {
  return character.charCodeAt(0).toString(16).padStart(digits, '0')
}

function visible(character: string): string {
  const code = character.charCodeAt(0)
  return NAMED[character] ?? (code < 0x100 ? `\\x${hex(character, 2)}` : `\\u${hex(character, 4)}`)
}

export interface ControlOptions {
  /** Text that may span lines (notes, multi-line messages): newline, tab and CRLF are ordinary characters. */
  keepLineBreaks?: boolean
}

/**
 * Text as it may be written to a terminal or a log line: every control character shown as its escape (`\x1b`,
 * `\n`, `\u202e`), so text from a board, an import, the API or a store can neither move the cursor, change the
 * title, hide a link nor reorder what is around it. Everything jobagent prints from outside data goes through this.
 */
export function escapeControls(text: string, options?: ControlOptions): string {
  // Nearly all text holds none; the test is cheaper than the replacement on a log line or a table cell, which a
  // table of thousands of jobs calls this for, cell by cell.
  if (!ANY.test(text)) return text
  return text.replace(options?.keepLineBreaks ? EVERY_BUT_LINE_BREAKS : EVERY, visible)
}

/** JSON text (from JSON.stringify) with DEL, C1 and bidi controls written as `\u` escapes too: the same data. */
export function escapeJsonControls(json: string): string {
  return json.replace(JSON_UNESCAPED, (character) => `\\u${hex(character, 4)}`)
}

interface FoundControl {
  /** `U+001B` */
  code: string
  /** 1-based position in the text, in UTF-16 units as an editor counts them. */
  position: number
}

/** The first character that escapeControls would escape; undefined when the text holds none. */
export function findControl(text: string, options: ControlOptions = {}): FoundControl | undefined {
  const pattern = options.keepLineBreaks ? EVERY_BUT_LINE_BREAKS : EVERY
  pattern.lastIndex = 0
  const match = pattern.exec(text)
  pattern.lastIndex = 0
  if (!match) return undefined
  return {code: `U+${hex(match[0], 4).toUpperCase()}`, position: match.index + 1}
}

const NOT_WHITE_SPACE = `\\u0000-\\u0008\\u000e-\\u001f\\u007f-\\u009f${BIDI}`
const ANY_NOT_WHITE_SPACE = new RegExp(`[${NOT_WHITE_SPACE}]`)
const EVERY_NOT_WHITE_SPACE = new RegExp(`[${NOT_WHITE_SPACE}]`, 'g')

/**
 * Text read from outside (a posting's description) without its control and bidi characters; the white space
 * among them (tab, line feed, vertical tab, form feed, carriage return) stays for the reader to fold.
 */
export function removeControls(text: string): string {
  // Nearly all text holds none; the test is cheaper than the replacement.
  return ANY_NOT_WHITE_SPACE.test(text) ? text.replace(EVERY_NOT_WHITE_SPACE, '') : text
}

/** Removes the bidi embeddings, overrides and isolates (board text; the C0 and C1 controls are collapsed there). */
export function removeBidiControls(text: string): string {
  return text.replace(BIDI_EVERY, '')
}

/** Each control character percent-encoded, as a URL parser encodes it in a path or query: the same address. */
export function encodeControlsInUrl(url: string): string {
  if (!ANY.test(url)) return url
  return url.replace(EVERY, (character) => encodeURIComponent(character))
}
