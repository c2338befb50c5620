/**
 * Runs of characters trimmed or folded in one pass. A pattern such as `/\/+$/` or `/[\s,;]+$/` starts again at
 * every character of a long run that stops short of the end, so it takes time in the square of the run (minutes
 * for a megabyte of spaces in a board's link); these read each character once. `character` is a pattern of one
 * character, without the `g` or `y` flag.
 */

/** `text` without the characters `character` matches at its end. */
export function trimEndOf(text: string, character: RegExp): string {
  let end = text.length
  while (end > 0 && character.test(text.charAt(end - 1))) end--
  return end === text.length ? text : text.slice(0, end)
}

/** `text` without the characters `character` matches at either end. */
export function trimEdgesOf(text: string, character: RegExp): string {
  let start = 0
  while (start < text.length && character.test(text.charAt(start))) start++
  return trimEndOf(start === 0 ? text : text.slice(start), character)
}

const SLASH = /\//

/** `text` without the slashes at its end: `https://example.org/api//` is `https://example.org/api`. */
export const withoutTrailingSlashes = (text: string): string => trimEndOf(text, SLASH)

/** White space that folding changes: a run of it, or any white space but a single space. */
const FOLDABLE = /\s\s|[^\S ]/

/** `text` with each run of white space as one space. */
export function foldWhiteSpace(text: string): string {
  // Most text is prose with single spaces: the test is far cheaper than a replacement that rebuilds the string.
  return FOLDABLE.test(text) ? text.replace(/\s+/g, ' ') : text
}
