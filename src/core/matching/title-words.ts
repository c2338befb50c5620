/** At most this many words of a title are read: a title longer than that is not a title. */
const TITLE_WORDS = 40

/**
 * The words of a title or a wanted role, lower-case, without accents, with `back end`, `front end` and `full
 * stack` as one word (`Senior Back-End Engineer` -> senior, backend, engineer) and `&` as `and`. The occupation
 * index (scripts/build-occupations.ts) stores its titles in these words, so a job's title is read the same way.
 */
export function roleWords(text: string): string[] {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/\b(back|front)[\s-]+end\b/g, '$1end')
    .replace(/\bfull[\s-]+stack\b/g, 'fullstack')
    .replace(/\be-?mail\b/g, 'email')
    .match(/\.net|[\p{L}\p{N}][\p{L}\p{N}#+]*(?:\.[\p{L}\p{N}]+)*/gu)
  if (!words) return []
  return words.length > TITLE_WORDS ? words.slice(0, TITLE_WORDS) : words
}

/** The singular forms a plural word may have, most likely first (`nurses` -> nurse; `technologies` -> technology). */
export function singulars(word: string): string[] {
  if (word.length < 4 || !word.endsWith('s') || /(ss|us|is)$/.test(word)) return []
  const found: string[] = []
  if (word.endsWith('ies')) found.push(`${word.slice(0, -3)}y`)
  if (/(ch|sh|x|z|ss)es$/.test(word)) found.push(word.slice(0, -2))
  found.push(word.slice(0, -1))
  return found
}

/** Words that join others; a title's head is the word before `of` or `for` (`Director of Nursing`). */
export const JOINING_WORDS: ReadonlySet<string> = new Set([
  'of',
  'for',
  'and',
  'the',
  'a',
  'an',
  'in',
  'at',
  'to',
  'with',
  'on',
  'de',
  'y',
])
