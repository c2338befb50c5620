import {NEARNESS, type OccupationIndex, type TitleCore, titleCore, titleWords} from './occupations.js'
import {JOINING_WORDS, singulars} from './title-words.js'

export {roleWords} from './title-words.js'

/** The credit of related work by another kind of worker: that of the same SOC broad group. */
const FIELD = NEARNESS.broad

/**
 * Distinctive words this rare among O*NET's titles, together (one title in a thousand or fewer holds them), name a
 * specialty (accounts payable, flutter, soc); commoner ones name a field (data, sales, security).
 */
const SPECIALTY_IDF = Math.log(1000)

/** A wanted role as the matcher holds it: its words, its occupations and what is distinctive in it. */
interface WantedRole {
  name: string
  words: readonly string[]
  /** The noun that names its work (`developer`). */
  head: string
  /** The words that set it apart from other work of its head noun (`flutter` in `flutter developer`). */
  distinctive: readonly string[]
  occupations: readonly number[]
}

interface RoleMatch {
  /** 0 to 1: the same work 1, a related occupation by its tier, the same field a little, none 0. */
  value: number
  /** One line for the reasons, or null when the title names nothing near a wanted role. */
  reason: string | null
  /** The occupation the title was read as, when it names one the data knows (for the level's job zone). */
  occupation: number | null
}

/** Whether two words are one, but for a plural (`accounts`, `account`). */
const sameWord = (a: string, b: string) => a === b || singulars(a).includes(b) || singulars(b).includes(a)

/** Whether `words` holds `phrase` as consecutive words. */
function holds(words: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0) return false
  for (let at = 0; at + phrase.length <= words.length; at++) {
    if (phrase.every((word, i) => words[at + i] === word)) return true
  }
  return false
}

/**
 * Compares titles with a profile's wanted roles through the occupation index (docs/MATCHING.md, "The role"): a
 * wanted role's own words in the title, the same occupation, a related one, the same field; and, for titles the
 * data does not know, the wanted role's distinctive words with an equivalent head noun. A title is read once however
 * many jobs share it.
 */
export class RoleMatcher {
  private readonly wanted: WantedRole[]
  private readonly seen = new Map<string, RoleMatch>()

  constructor(
    roles: readonly string[],
    private readonly index: OccupationIndex,
  ) {
    this.wanted = roles
      .map((role) => {
        const words = titleWords(role)
        const core = titleCore(role)
        const head = index.headOf(core)
        const distinctive = core.words.filter((word) => word !== head && !JOINING_WORDS.has(word))
        return {name: role.trim().toLowerCase(), words, head, distinctive, occupations: index.occupationsOf(role)}
      })
      .filter((role) => role.words.length > 0)
  }

  get wantsRoles(): boolean {
    return this.wanted.length > 0
  }

  match(title: string): RoleMatch {
    let found = this.seen.get(title)
    if (!found) {
      found = this.matchAnew(title)
      this.seen.set(title, found)
    }
    return found
  }

  private matchAnew(title: string): RoleMatch {
    const {index} = this
    const words = titleWords(title)
    const theirs = index.occupationsOf(title)
    const occupation = theirs[0] ?? null
    let core: TitleCore | undefined
    let best: RoleMatch = {value: 0, reason: null, occupation}
    // A wanted role's own words in the title are the same work, whether or not the data knows the role.
    for (const role of this.wanted) {
      if (holds(words, role.words)) return {value: 1, reason: `+ role: ${role.name}`, occupation}
    }
    for (const role of this.wanted) {
      for (const wanted of role.occupations) {
        for (const their of theirs) {
          const near = index.nearness(their, wanted)
          const {how} = near
          core ??= titleCore(title)
          const mine = core.words
          let value = near.value
          // Related work by another kind of worker (a software engineer for a UX designer) is only the same field.
          if (how === 'related' && !index.sameHead(index.headOf(core), role.head)) value = Math.min(value, FIELD)
          // A wanted specialty of a broad occupation (a platform engineer among software developers) is the same
          // work only in a title that names the specialty; the occupation's other titles are close to it.
          const specialty =
            how === 'same' &&
            role.distinctive.length > 0 &&
            !role.distinctive.every((word) =>
              index
                .occupation(wanted)
                .name.split(' ')
                .some((w) => sameWord(w, word)),
            ) &&
            !role.distinctive.some((word) => mine.some((their) => sameWord(their, word)))
          // The same occupation by another kind of worker (a research analyst for a data scientist, a data analyst
          // for a data engineer) is close work, not the same: O*NET files many kinds of worker under one code. A
          // title that names the wanted role's specialty (an accounts payable assistant for an accounts payable
          // specialist) is the same work whatever its head noun; a field's word (data, sales) names no specialty.
          const otherWorker =
            how === 'same' &&
            !specialty &&
            !index.sameHead(index.headOf(core), role.head) &&
            !(
              role.distinctive.reduce((sum, word) => sum + index.idf(word), 0) >= SPECIALTY_IDF &&
              role.distinctive.every((word) => mine.some((their) => sameWord(their, word)))
            )
          if (specialty || otherWorker) value = NEARNESS.specialty
          if (value <= best.value) continue
          const name = index.occupation(their).name
          best = {
            value,
            occupation,
            reason:
              how === 'same' && !specialty && !otherWorker
                ? `+ role: ${role.name}`
                : how === 'same'
                  ? `~ role: ${name}, close to ${role.name}`
                  : how === 'related'
                    ? `~ role: ${name}, related to ${role.name}`
                    : `~ role: ${name}, same field as ${role.name}`,
          }
        }
      }
      if (best.value >= 1) return best
      // A title the data reads otherwise, or not at all ("Flutter Engineer"), is still the wanted role when it has
      // the role's distinctive words and a head noun for the same work; a shared head noun alone is not.
      core ??= titleCore(title)
      const {words: mine} = core
      const head = index.headOf(core)
      if (
        role.distinctive.length > 0 &&
        role.distinctive.every((word) => mine.some((their) => sameWord(their, word))) &&
        index.sameHead(head, role.head)
      ) {
        return {value: 1, reason: `+ role: ${role.name}`, occupation}
      }
    }
    return best
  }
}

/** The occupations a title names, as the verdicts' terms name them (`role:29-1141.00`). */
export function titleFamilies(title: string, index: OccupationIndex): string[] {
  return index.occupationsOf(title).map((at) => index.occupation(at).code)
}

/** An occupation's name as people read it, from its code. */
export function familyName(code: string, index: OccupationIndex): string {
  const at = index.byCode(code)
  return at === undefined ? code : index.occupation(at).name
}
