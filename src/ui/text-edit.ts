/** The keys a one-line prompt understands; Ink's Key has these fields. */
export interface EditKey {
  ctrl: boolean
  meta: boolean
  backspace: boolean
  delete: boolean
  return: boolean
  escape: boolean
  tab: boolean
  upArrow: boolean
  downArrow: boolean
  leftArrow: boolean
  rightArrow: boolean
  pageUp: boolean
  pageDown: boolean
  home: boolean
  end: boolean
}

// Terminals send Backspace as DEL (0x7f), which Ink reports as `delete`; both erase the last character.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a prompt must not keep
const CONTROL = /[\u0000-\u001f\u007f]/g

/** The prompt's text after a key, or null when the key is not an edit (enter, escape, arrows...). */
export function editText(draft: string, input: string, key: EditKey): string | null {
  if (key.backspace || key.delete) return Array.from(draft).slice(0, -1).join('')
  if (key.ctrl && input === 'u') return ''
  if (key.ctrl && input === 'w') return draft.replace(/\S+\s*$/, '')
  if (key.ctrl || key.meta || key.return || key.escape || key.tab) return null
  if (key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.pageUp || key.pageDown) return null
  if (key.home || key.end) return null
  // A paste arrives as one input; line breaks in it become spaces.
  const text = input.replace(/\r\n?|\n/g, ' ').replace(CONTROL, '')
  return text === '' ? null : draft + text
}

const NO_KEY: EditKey = {
  ctrl: false,
  meta: false,
  backspace: false,
  delete: false,
  return: false,
  escape: false,
  tab: false,
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageUp: false,
  pageDown: false,
  home: false,
  end: false,
}

function singleKey<K extends EditKey>(character: string, key: K): {input: string; key: K} {
  const plain = {...key, ...NO_KEY}
  const code = character.codePointAt(0) ?? 0
  if (character === '\r' || character === '\n') return {input: '', key: {...plain, return: true}}
  if (character === '\t') return {input: '', key: {...plain, tab: true}}
  if (character === '\u007f') return {input: '', key: {...plain, delete: true}}
  if (character === '\b') return {input: '', key: {...plain, backspace: true}}
  if (code < 32) return {input: String.fromCharCode(code + 96), key: {...plain, ctrl: true}}
  return {input: character, key: plain}
}

/**
 * Ink hands over plain characters that arrive in one read (fast typing, a paste, tmux send-keys) as one input,
 * Enter and Backspace included, and reads Esc followed at once by another key as Alt+key. Split into single keys
 * (Esc first: nothing here uses Alt), they are applied one after the other like typed keys.
 */
export function splitTyped<K extends EditKey>(input: string, key: K): {input: string; key: K}[] {
  const escapeKey = {input: '', key: {...key, ...NO_KEY, escape: true}}
  if (key.meta && !key.escape) return [escapeKey, ...splitTyped(input, {...key, meta: false})]
  const flagged = (Object.keys(NO_KEY) as (keyof EditKey)[]).some((name) => key[name])
  const characters = Array.from(input)
  if (flagged || characters.length === 0) return [{input, key}]
  const [first = ''] = characters
  if (characters.length === 1) {
    // A lone control character without its key's flag is what Ink leaves of Esc + that key.
    return (first.codePointAt(0) ?? 32) < 32 ? [escapeKey, singleKey(first, key)] : [{input, key}]
  }
  return characters.map((character) => singleKey(character, key))
}
