import {ROLE_FAMILIES, ROLE_NEARNESS} from './roles.js'

/** At most this many words of a title are read: a title longer than that is not a title. */
const TITLE_WORDS = 40

/**
 * The words of a title or a wanted role, lower-case, with `back end`, `front end` and `full stack` as one word
 * (`Senior Back-End Engineer` -> senior, backend, engineer). Level and other words stay: aliases are found
 * wherever they stand in the title.
 */
export function roleWords(text: string): string[] {
  const words = text
    .toLowerCase()
    .replace(/\b(back|front)[\s-]+end\b/g, '$1end')
    .replace(/\bfull[\s-]+stack\b/g, 'fullstack')
    .replace(/\be-?mail\b/g, 'email')
    .match(/\.net|[\p{L}\p{N}][\p{L}\p{N}#+]*(?:\.[\p{L}\p{N}]+)*/gu)
  if (!words) return []
  return words.length > TITLE_WORDS ? words.slice(0, TITLE_WORDS) : words
}

interface Alias {
  family: string
  words: readonly string[]
}

/** Every alias, by its first word, longest first: a title is read word by word against the aliases starting there. */
const ALIASES = new Map<string, Alias[]>()
for (const [family, {aliases}] of Object.entries(ROLE_FAMILIES)) {
  for (const alias of aliases) {
    const words = roleWords(alias)
    const first = words[0]
    if (first === undefined) continue
    ALIASES.set(first, [...(ALIASES.get(first) ?? []), {family, words}])
  }
}
for (const list of ALIASES.values()) list.sort((a, b) => b.words.length - a.words.length)

/**
 * The families a title names. At each word the longest alias that starts there is taken and its words are
 * passed over, so `Product Marketing Manager` is product marketing, not product manager or marketing.
 */
export function familiesIn(words: readonly string[]): string[] {
  const found: string[] = []
  let at = 0
  while (at < words.length) {
    const alias = ALIASES.get(words[at]!)?.find(({words: alias}) => alias.every((word, i) => words[at + i] === word))
    if (alias) {
      if (!found.includes(alias.family)) found.push(alias.family)
      at += alias.words.length
    } else {
      at++
    }
  }
  return found
}

/** How near a family the title names is to a wanted one, and in which words (for reasons). */
function nearness(theirs: string, wanted: string): {value: number; how: string} {
  if (theirs === wanted) return {value: ROLE_NEARNESS.same, how: 'same'}
  const a = ROLE_FAMILIES[theirs]!
  const b = ROLE_FAMILIES[wanted]!
  if (a.close?.includes(wanted) || b.close?.includes(theirs)) return {value: ROLE_NEARNESS.close, how: 'close'}
  if (a.related?.includes(wanted) || b.related?.includes(theirs)) return {value: ROLE_NEARNESS.related, how: 'related'}
  if (a.field === b.field) return {value: ROLE_NEARNESS.field, how: 'field'}
  return {value: 0, how: 'none'}
}

/** A wanted role as the matcher holds it: its families, or its own words when the table does not know it. */
interface WantedRole {
  name: string
  words: readonly string[]
  families: readonly string[]
}

interface RoleMatch {
  /** 0 to 1: the same work 1, a close one 0.7, a related one 0.4, the same field 0.2, none 0. */
  value: number
  /** One line for the reasons, or null when the title names nothing near a wanted role. */
  reason: string | null
}

const NO_ROLE: RoleMatch = {value: 0, reason: null}

/** Whether `words` holds `phrase` as consecutive words. */
function holds(words: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0) return false
  for (let at = 0; at + phrase.length <= words.length; at++) {
    if (phrase.every((word, i) => words[at + i] === word)) return true
  }
  return false
}

/** Compares titles with a profile's wanted roles; a title is read once however many jobs share it. */
export class RoleMatcher {
  private readonly wanted: WantedRole[]
  private readonly seen = new Map<string, RoleMatch>()

  constructor(roles: readonly string[]) {
    this.wanted = roles
      .map((role) => {
        const words = roleWords(role)
        return {name: role.trim().toLowerCase(), words, families: familiesIn(words)}
      })
      .filter((role) => role.words.length > 0)
  }

  get wantsRoles(): boolean {
    return this.wanted.length > 0
  }

  match(title: string): RoleMatch {
    let found = this.seen.get(title)
    if (!found) {
      found = this.read(title)
      this.seen.set(title, found)
    }
    return found
  }

  private read(title: string): RoleMatch {
    const words = roleWords(title)
    const theirs = familiesIn(words)
    let best = NO_ROLE
    for (const role of this.wanted) {
      // A wanted role's own words in the title are the same work, whether or not the table knows the role.
      if (holds(words, role.words)) return {value: 1, reason: `+ role: ${role.name}`}
      for (const wanted of role.families) {
        for (const family of theirs) {
          const {value, how} = nearness(family, wanted)
          if (value <= best.value) continue
          const name = ROLE_FAMILIES[family]!.name
          best = {
            value,
            reason:
              how === 'same'
                ? `+ role: ${name === role.name ? name : `${name} (${role.name})`}`
                : how === 'close'
                  ? `~ role: ${name}, close to ${role.name}`
                  : how === 'related'
                    ? `~ role: ${name}, related to ${role.name}`
                    : `~ role: ${name}, same field as ${role.name}`,
          }
        }
      }
    }
    return best
  }
}

/** The family names a title names, for feedback's terms (`role:backend-engineer`). */
export function titleFamilies(title: string): string[] {
  return familiesIn(roleWords(title))
}

/** A family's name as people read it. */
export const familyName = (family: string): string => ROLE_FAMILIES[family]?.name ?? family
