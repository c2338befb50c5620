import {LEVEL_WORDS} from '../matching/occupations.js'
import {roleWords} from '../matching/role-match.js'
import type {JobVerdict} from './job-verdicts.js'

/** Dismissals with one reason that make a rule worth proposing. */
const PROPOSE_AFTER = 3
/** Words too common in titles to make a rule of. */
const TITLE_GLUE = new Set(['the', 'and', 'of', 'for', 'to', 'in', 'a', 'an', 'with', 'at', 'on', 'm', 'w', 'd', 'f'])

const reasonKey = (reason: string) => reason.trim().toLowerCase().replace(/\s+/g, ' ')
const titleWords = (title: string) => new Set(roleWords(title).filter((word) => !TITLE_GLUE.has(word)))

/**
 * After PROPOSE_AFTER or more dismissals with the reason of `given`, a word that every one of their titles holds
 * and no liked title, role or skill of the profile (`wanted`) does, as the `profile.avoid` that would rule such
 * jobs out; null when there is none.
 */
export function dismissalProposal(
  verdicts: readonly JobVerdict[],
  given: JobVerdict,
  profile: {avoid: readonly string[]; wanted: ReadonlySet<string>},
): string | null {
  const {avoid, wanted} = profile
  if (given.reason === null) return null
  const key = reasonKey(given.reason)
  const alike = verdicts.filter(
    (other) => other.verdict === 'dismiss' && other.reason && reasonKey(other.reason) === key,
  )
  if (alike.length < PROPOSE_AFTER) return null
  const liked = new Set(
    verdicts.filter((other) => other.verdict === 'like').flatMap((other) => [...titleWords(other.title)]),
  )
  const [first, ...rest] = alike.map((other) => titleWords(other.title))
  // A word of the person's own roles or skills is never proposed: ruling it out would sink the jobs they want. Nor
  // is a level ("senior"): the profile's seniority says which levels are wanted, and its gate weighs them.
  const shared = [...first!].filter(
    (word) =>
      !liked.has(word) &&
      !wanted.has(word) &&
      !LEVEL_WORDS.has(word) &&
      !avoid.includes(word) &&
      rest.every((words) => words.has(word)),
  )
  // The word the reason itself names ("devops, not mobile") first: it is what the person said.
  const said = new Set(roleWords(given.reason))
  const word = shared.find((candidate) => said.has(candidate)) ?? shared[0]
  if (word === undefined) return null
  return (
    `${alike.length} jobs dismissed as "${given.reason}" all have "${word}" in the title; to rule such jobs out: ` +
    `jobagent config set profile.avoid '${JSON.stringify([...avoid, word])}'`
  )
}
