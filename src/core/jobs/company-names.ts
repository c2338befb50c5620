/**
 * A company's name as a key that different spellings of the same name share: `Acme Corp, Inc.`, `ACME`, `Acmé`
 * and the slug `acme-corp` are all `acme`. `boards find` compares a name with the directory's companies and slugs
 * by it; boards and lists spell one company in all of these ways.
 */

/**
 * Legal forms, as written at the end of a company's name (dots left out: `S.A.` is `sa`, `Pty. Ltd.` is `pty
 * ltd`). A board is named after the company, not its legal form.
 */
export const LEGAL_FORMS: ReadonlySet<string> = new Set([
  'inc',
  'incorporated',
  'llc',
  'ltd',
  'limited',
  'gmbh',
  'ag',
  'sa',
  'sas',
  'sarl',
  'srl',
  'sl',
  'spa',
  'bv',
  'nv',
  'plc',
  'pty',
  'pte',
  'oy',
  'oyj',
  'ab',
  'as',
  'asa',
  'aps',
  'kg',
  'se',
  'lp',
  'llp',
  'ug',
  'ltda',
])

/**
 * What a name key leaves off the end of a name: a legal form, or a word that stands for one (`Corp.`, `Co.`,
 * `Company`, as in `Acme & Co. KG`).
 */
export const NAME_SUFFIXES: ReadonlySet<string> = new Set([...LEGAL_FORMS, 'corp', 'corporation', 'co', 'company'])

/** Names longer than this are no company's; the rest is not read. */
const MAX_NAME_LENGTH = 200
const ASCII = /^[^\u0080-\uffff]*$/
const COMBINING_MARKS = /\p{M}+/gu
/** Marks inside a word that the word is spelled with or without: `S.A.`, `McDonald's`. */
const INNER_MARKS = /[.'’]/g
const ASCII_WORDS = /[a-z0-9]+/g
const WORDS = /[\p{L}\p{N}]+/gu

/**
 * The words of a name in lower case, accents dropped (NFKD), `&` read as `and`, dots and apostrophes inside a
 * word left out, every other mark a break between words.
 */
export function nameWords(name: string): string[] {
  let text = name.slice(0, MAX_NAME_LENGTH).toLowerCase()
  const ascii = ASCII.test(text)
  if (!ascii) text = text.normalize('NFKD').replace(COMBINING_MARKS, '')
  // Most names hold neither mark: the text is copied only for those that do.
  if (/[.'’&]/.test(text)) text = text.replace(INNER_MARKS, '').replaceAll('&', ' and ')
  return text.match(ascii ? ASCII_WORDS : WORDS) ?? []
}

/**
 * `words` without the legal forms and their stand-ins at its end, and an `and` left dangling before them (`& Co.
 * KG`); at least the first word stays, so a company called `Company` is still named.
 */
function withoutSuffixes(words: readonly string[]): readonly string[] {
  let end = words.length
  while (end > 1 && (NAME_SUFFIXES.has(words[end - 1] ?? '') || (end < words.length && words[end - 1] === 'and'))) {
    end -= 1
  }
  return end === words.length ? words : words.slice(0, end)
}

/** One word of ASCII letters and digits: its key is itself in lower case, most slugs' and many names' case. */
const ONE_WORD = /^[a-z0-9]+$/

/** `acme` for `Acme Corp, Inc.`, `ACME`, `Acmé GmbH` and `acme-corp`: the name's words, suffixes left off, joined. */
export function companyKey(name: string): string {
  const lower = name.toLowerCase()
  if (lower.length <= MAX_NAME_LENGTH && ONE_WORD.test(lower)) return lower
  return withoutSuffixes(nameWords(name)).join('')
}

const AMPERSAND = 38
const LOWER_A = 97

/**
 * The first character code of the key of `text.slice(from, to)`, found without copying it: that of a letter or
 * digit in lower case (`a` for `&`, which reads as `and`), 0 when the key is empty, -1 when a character beyond ASCII
 * comes first, whose key only companyKey can tell. A lookup skips a name whose key cannot start as the one sought.
 */
export function keyStart(text: string, from = 0, to = text.length): number {
  for (let at = from; at < to; at++) {
    const code = text.charCodeAt(at)
    if (code >= 48 && code <= 57) return code
    if (code >= 97 && code <= 122) return code
    if (code >= 65 && code <= 90) return code + 32
    if (code === AMPERSAND) return LOWER_A
    if (code > 127) return -1
  }
  return 0
}

/**
 * The keys a name asked for is looked up by: its key, and its words joined with their suffixes kept, which is how
 * a slug without separators spells it (`Acme Corp` is also `acmecorp`).
 */
export function companyKeys(name: string): string[] {
  const words = nameWords(name)
  const keys = [withoutSuffixes(words).join(''), words.join('')]
  return keys[0] === keys[1] ? [keys[0] ?? ''] : (keys as string[])
}
