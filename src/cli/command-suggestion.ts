import {nearestWord, typoAllowance} from '../core/edit-distance.js'

/**
 * The known command nearest to what was typed (words separated by spaces), when it is near enough to be a typo.
 * How near is measured on the last word, so that `x` does not become `ui`, nor `config foo` become `config get`.
 */
export function closestCommand(typed: string, known: readonly string[]): string | undefined {
  const lastWord = typed.split(' ').at(-1) ?? ''
  return nearestWord(typed, known, typoAllowance(lastWord.length))
}
