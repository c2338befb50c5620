import {HEAD_EQUIVALENTS, TITLE_ABBREVIATIONS, TITLE_OVERRIDES} from './role-overrides.js'
import {JOINING_WORDS, roleWords, singulars} from './title-words.js'

/** The occupation index as data/occupations.json holds it (scripts/build-occupations.ts writes it). */
export interface OccupationData {
  /** Where the knowledge comes from, for `--explain`: `O*NET 29.3`. */
  source: string
  /** code, name (singular, lower-case), job zone (1-5, 0 unknown), related by tier: Primary-Short, -Long, Supplemental. */
  occupations: [string, string, number, number[], number[], number[]][]
  /** Every title in title words (title-words.ts), sorted (by code unit), so it is found by binary search. */
  titles: string[]
  /** The occupations (indexes) each title names: one, or several. */
  of: (number | number[])[]
  /** Every word of the titles but joining words, sorted, and the titles holding it (positions as base-36 gaps). */
  words: string[]
  in: string[]
  /** The words that end three titles or more, sorted: the head nouns a title may name its work with. */
  nouns: string[]
  /** Head nouns that name the same work, each with its equivalents. */
  heads: Record<string, string[]>
}

interface Occupation {
  /** The O*NET-SOC code: `29-1141.00`. */
  code: string
  /** As reasons name it: `registered nurse`. */
  name: string
  /** The preparation it takes, 1 (little) to 5 (extensive); null when O*NET has none. */
  zone: number | null
}

/**
 * How near two occupations are. O*NET ranks each occupation's related ones in three tiers: Primary-Short are the
 * handful most like it (a move a person makes with little new training), Primary-Long the next ten or so,
 * Supplemental the rest; credit falls with the tier and stays below another title of the same occupation
 * (`specialty`: a software engineer for a platform engineer), so that the same work always ranks first. Occupations of one SOC broad group (`15-125x`, software and web developers) or minor group
 * (`15-12xx`, computer occupations) share a field without doing each other's work: a little credit.
 */
export const NEARNESS = {
  same: 1,
  specialty: 0.7,
  primaryShort: 0.5,
  primaryLong: 0.4,
  supplemental: 0.3,
  broad: 0.2,
  minor: 0.1,
}
const TIER_VALUE = [NEARNESS.primaryShort, NEARNESS.primaryLong, NEARNESS.supplemental] as const
const TIER_NAME = ['related', 'related', 'related'] as const

/**
 * Titles whose occupations are kept once read. A sweep reads the titles of tens of thousands of boards through one
 * index, most of them once: past this many the oldest read is forgotten, so the index does not grow with the sweep.
 */
const SEEN_TITLES = 20_000

/** A title naming more occupations than this ("engineer", "field technician") says only its words. */
const AMBIGUOUS = 8
/** A title known only by its words is an occupation's when the words it shares weigh this much of both. */
const WORD_MATCH = 0.5
/** Occupations whose best title comes this close to the best one are read as well. */
const WORD_TIE = 0.9
/** Words this common in the titles are not used to find candidate titles (they still weigh in the comparison). */
const CANDIDATE_DF = 4000

/** Words of a title that say its level or its terms, not the work: left out when the title is read for its work. */
export const LEVEL_WORDS: ReadonlySet<string> = new Set([
  'senior',
  'sr',
  'junior',
  'jr',
  'lead',
  'principal',
  'staff',
  'intern',
  'internship',
  'trainee',
  'apprentice',
  'graduate',
  'associate',
  'mid',
  'level',
  'entry',
  'head',
  'chief',
  'i',
  'ii',
  'iii',
  'iv',
  'v',
  '1',
  '2',
  '3',
  '4',
])
/** Words that say where or how the job is done, or who may apply (`(m/w/d)`), never the work. */
const NOISE_WORDS = new Set(['remote', 'hybrid', 'onsite', 'm', 'w', 'd', 'f', 'x', 'h', 'all', 'genders', 'gn'])

/** A title read for its work: its parts' words, level and noise words dropped, and its head noun. */
export interface TitleCore {
  /** The words of each part (`Staff Nurse - ICU`: [staff, nurse], [icu]), noise dropped, level words kept. */
  parts: string[][]
  /** Every word of the work: all parts, without level, noise or joining words. */
  words: string[]
  /** The noun that names the work (`nurse` in `Registered Nurse, ICU`), singular; '' when there is none. */
  head: string
}

/** A title's words (title-words.ts) with the abbreviations O*NET spells out written out (role-overrides.ts). */
export function titleWords(text: string): string[] {
  const words = roleWords(text)
  return words.some((word) => word in TITLE_ABBREVIATIONS)
    ? words.flatMap((word) => TITLE_ABBREVIATIONS[word] ?? [word])
    : words
}

/**
 * Reads a title for its work: what is in brackets (places, `m/w/d`, teams) and `remote` say nothing of it. Parts
 * are split at a dash with a space on either side (`Representative- USA Based Only`), never at one inside a word.
 */
export function titleCore(title: string): TitleCore {
  const bare = title.replace(/\([^)]*\)?|\[[^\]]*\]?/g, ' ')
  const parts = bare
    .split(/\s[-@]\s?|-\s|[,|–—:;]|\s\/\s|\bat\b/)
    .map((part) => titleWords(part).filter((word) => !NOISE_WORDS.has(word)))
    .filter((words) => words.length > 0)
  const words = [...new Set(parts.flat().filter((word) => !LEVEL_WORDS.has(word) && !JOINING_WORDS.has(word)))]
  let head = ''
  for (const part of parts) {
    const work = part.filter((word) => !LEVEL_WORDS.has(word))
    const joined = work.findIndex((word) => word === 'of' || word === 'for')
    const candidate = joined > 0 ? work[joined - 1] : work.filter((word) => !JOINING_WORDS.has(word)).at(-1)
    if (candidate !== undefined) {
      head = candidate
      break
    }
  }
  return {parts, words, head}
}

/**
 * The occupations of O*NET and every title people give them, for reading a job's title or a wanted role as work:
 * built once from data/occupations.json (plus the override layer, role-overrides.ts) and asked for many titles.
 */
export class OccupationIndex {
  readonly source: string
  private readonly occupations: Occupation[]
  private readonly related: Map<number, number>[]
  private readonly lists = new Map<string, readonly number[]>()
  private readonly overrides = new Map<string, readonly number[]>()
  private readonly heads = new Map<string, Set<string>>()
  private readonly seen = new Map<string, readonly number[]>()
  private readonly idfs = new Map<string, number>()
  /** Each title's distinct words but joining words, and their weight (sum of idf), split from the data once each. */
  private readonly termsOfTitle: (readonly string[] | undefined)[] = []
  private readonly weightOfTitle: (number | undefined)[] = []

  constructor(
    private readonly data: OccupationData,
    private readonly seenTitles = SEEN_TITLES,
  ) {
    this.source = data.source
    this.occupations = data.occupations.map(([code, name, zone]) => ({code, name, zone: zone > 0 ? zone : null}))
    this.related = data.occupations.map(([, , , ...tiers]) => {
      const related = new Map<number, number>()
      tiers.forEach((list, tier) => {
        for (const other of list) if (!related.has(other)) related.set(other, tier)
      })
      return related
    })
    const byCode = new Map(this.occupations.map(({code}, at) => [code, at]))
    for (const [title, codes] of Object.entries(TITLE_OVERRIDES)) {
      const found = codes.map((code) => byCode.get(code))
      if (found.some((at) => at === undefined)) throw new Error(`role override for "${title}" names an unknown code`)
      this.overrides.set(roleWords(title).join(' '), found as number[])
    }
    const link = (a: string, b: string) => {
      if (a === b) return
      let set = this.heads.get(a)
      if (!set) {
        set = new Set()
        this.heads.set(a, set)
      }
      set.add(b)
    }
    for (const [head, others] of Object.entries(data.heads)) for (const other of others) link(head, other)
    for (const group of HEAD_EQUIVALENTS) for (const a of group) for (const b of group) link(a, b)
  }

  occupation(at: number): Occupation {
    return this.occupations[at]!
  }

  /** The occupation whose code this is, as an index; undefined when the data has none. */
  byCode(code: string): number | undefined {
    const at = this.occupations.findIndex((occupation) => occupation.code === code)
    return at === -1 ? undefined : at
  }

  /**
   * The noun that names a title's work: its head, unless words follow the last head noun the titles know
   * (`AI Engineer Data APIs`, `Backend Engineer Mailgun Send`: engineer).
   */
  headOf(core: TitleCore): string {
    const {head} = core
    if (head === '' || this.isNoun(head)) return head
    const part = core.parts.find((words) => words.includes(head)) ?? []
    for (let at = part.indexOf(head) - 1; at >= 0; at--) if (this.isNoun(part[at]!)) return part[at]!
    return head
  }

  private isNoun(word: string): boolean {
    return [word, ...singulars(word)].some((form) => sortedIndex(this.data.nouns, form) !== -1)
  }

  /** Whether two head nouns name the same work (`developer`, `engineer`; `nurse`, `rn`), from the data and overrides. */
  sameHead(a: string, b: string): boolean {
    if (a === '' || b === '') return false
    if (a === b) return true
    const forms = (word: string) => [word, ...singulars(word)]
    return forms(a).some((x) => forms(b).some((y) => x === y || this.heads.get(x)?.has(y) === true))
  }

  /**
   * The occupations a title names, best first: the title as the data has it (whole, then each of its parts, with
   * and without its level words, then singular), else the known title sharing most of its distinctive words (rare
   * words weigh more). [] when the title names no occupation the data knows.
   */
  occupationsOf(title: string): readonly number[] {
    let found = this.seen.get(title)
    if (!found) {
      found = this.matchAnew(title)
      if (this.seen.size >= this.seenTitles) this.seen.delete(this.seen.keys().next().value as string)
      this.seen.set(title, found)
    }
    return found
  }

  /** How many titles' occupations are kept (at most SEEN_TITLES). */
  get titlesKept(): number {
    return this.seen.size
  }

  private matchAnew(title: string): readonly number[] {
    const core = titleCore(title)
    const found = this.lookUp(core)
    // A title O*NET lists under several occupations ("UX Designer": web and digital interface designers, and
    // software testers) names those whose own name has its head noun, when some have.
    const head = this.headOf(core)
    if (found.length < 2 || head === '') return found
    const named = found.filter((at) => this.sameHead(this.occupations[at]!.name.split(/[\s,]+/).at(-1) ?? '', head))
    return named.length > 0 ? named : found
  }

  private lookUp(core: TitleCore): readonly number[] {
    const tries: string[][] = []
    if (core.parts.length > 1) tries.push(core.parts.flat())
    tries.push(...core.parts)
    for (const words of tries) {
      const work = words.filter((word) => !LEVEL_WORDS.has(word))
      for (const variant of work.length < words.length && work.length > 0 ? [words, work] : [words]) {
        const exact = this.exact(variant)
        if (exact) return exact
      }
    }
    return this.byWords(core)
  }

  private exact(words: readonly string[]): readonly number[] | undefined {
    const last = words.at(-1)
    if (last === undefined) return undefined
    const stem = words.slice(0, -1).join(' ')
    for (const form of [last, ...singulars(last)]) {
      const found = this.titled(stem === '' ? form : `${stem} ${form}`)
      if (found && found.length <= AMBIGUOUS) return found
    }
    return undefined
  }

  /** The occupations of a title as the data (or an override) has it, by binary search of the sorted titles. */
  private titled(key: string): readonly number[] | undefined {
    const override = this.overrides.get(key)
    if (override) return override
    const at = sortedIndex(this.data.titles, key)
    return at === -1 ? undefined : this.occupationsAt(at)
  }

  private occupationsAt(at: number): readonly number[] {
    const of = this.data.of[at]!
    return typeof of === 'number' ? [of] : of
  }

  /** How rare a word is among the titles: ln(titles / titles with it); a word no title has is rarest. */
  idf(word: string): number {
    let value = this.idfs.get(word)
    if (value === undefined) {
      value = Math.log((this.data.titles.length + 1) / (this.titleCount(word) + 1))
      this.idfs.set(word, value)
    }
    return value
  }

  /** How many titles hold `word`: the gaps of its positions, counted without decoding them. */
  private titleCount(word: string): number {
    const decoded = this.lists.get(word)
    if (decoded) return decoded.length
    const at = sortedIndex(this.data.words, word)
    if (at === -1) return 0
    const gaps = this.data.in[at]!
    let count = 1
    for (let index = gaps.indexOf(' '); index !== -1; index = gaps.indexOf(' ', index + 1)) count++
    return count
  }

  private termsAt(at: number): readonly string[] {
    let terms = this.termsOfTitle[at]
    if (!terms) {
      terms = [...new Set(this.data.titles[at]!.split(' '))].filter((word) => !JOINING_WORDS.has(word))
      this.termsOfTitle[at] = terms
    }
    return terms
  }

  private weightAt(at: number): number {
    let weight = this.weightOfTitle[at]
    if (weight === undefined) {
      weight = 0
      for (const word of this.termsAt(at)) weight += this.idf(word)
      this.weightOfTitle[at] = weight
    }
    return weight
  }

  /** The positions of the titles holding `word`, decoded from the data once each. */
  private titlesWith(word: string): readonly number[] {
    let list = this.lists.get(word)
    if (!list) {
      const at = sortedIndex(this.data.words, word)
      const positions: number[] = []
      if (at !== -1) {
        let position = 0
        for (const gap of this.data.in[at]!.split(' ')) {
          position += Number.parseInt(gap, 36)
          positions.push(position)
        }
      }
      list = positions
      this.lists.set(word, list)
    }
    return list
  }

  private byWords(core: TitleCore): readonly number[] {
    if (core.words.length === 0) return []
    const known = (word: string) =>
      this.titlesWith(word).length > 0
        ? word
        : (singulars(word).find((form) => this.titlesWith(form).length > 0) ?? word)
    const mine = new Set(core.words.map(known))
    let mineWeight = 0
    for (const word of mine) mineWeight += this.idf(word)
    // A plural is its singular (`accounts payable`, `account payable`): both forms find titles and match words.
    const forms = new Set<string>()
    for (const word of mine) for (const form of [word, ...singulars(word), `${word}s`]) forms.add(form)
    const sharing = new Map<string, boolean>()
    const shares = (word: string) => {
      let value = sharing.get(word)
      if (value === undefined) {
        value = forms.has(word) || singulars(word).some((form) => forms.has(form))
        sharing.set(word, value)
      }
      return value
    }
    // A title scoring WORD_MATCH or more shares at least WORD_MATCH of this one's weight (shared >= m x (mine +
    // theirs - shared) and theirs >= shared), so it holds one of the heaviest words without which less than that
    // is left: candidates come from those words' titles only, not from every title with `engineer` in it.
    const leading: string[] = []
    let rest = mineWeight
    for (const word of [...mine].sort((a, b) => this.idf(b) - this.idf(a))) {
      if (rest < WORD_MATCH * mineWeight) break
      leading.push(word)
      rest -= this.idf(word)
    }
    const candidates = new Set<number>()
    for (const word of leading) {
      for (const form of [word, ...singulars(word), `${word}s`]) {
        const list = this.titlesWith(form)
        if (list.length <= CANDIDATE_DF) for (const at of list) candidates.add(at)
      }
    }
    const best = new Map<number, number>()
    let top = 0
    for (const at of candidates) {
      const of = this.data.of[at]!
      if (typeof of !== 'number' && of.length > AMBIGUOUS) continue
      // Shared words are the title's own, so the score is at most theirs / mine: a title much lighter than this one
      // cannot reach WORD_MATCH, whatever it shares.
      const theirs = this.weightAt(at)
      if (theirs < WORD_MATCH * mineWeight) continue
      let shared = 0
      for (const word of this.termsAt(at)) if (shares(word)) shared += this.idf(word)
      const score = shared / (mineWeight + theirs - shared)
      if (score < WORD_MATCH) continue
      for (const occupation of this.occupationsAt(at)) {
        if (score > (best.get(occupation) ?? 0)) best.set(occupation, score)
      }
      if (score > top) top = score
    }
    return [...best]
      .filter(([, score]) => score >= top * WORD_TIE)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .map(([occupation]) => occupation)
  }

  /** How near occupation `a` is to `b`, and how, for reasons. */
  nearness(a: number, b: number): {value: number; how: 'same' | 'related' | 'field' | 'none'} {
    if (a === b) return {value: NEARNESS.same, how: 'same'}
    const codeA = this.occupations[a]!.code
    const codeB = this.occupations[b]!.code
    // O*NET relates occupations across major groups by shared skills and interests (graphic designers and
    // software developers, Primary-Long): a move, not the same kind of work. Across major groups only the closest
    // tier earns credit: there O*NET files near work under another group (accountants and bookkeeping clerks,
    // software developers and computer hardware engineers), so an accountant's posting is related work for a
    // bookkeeper. The tier is as `a`'s list ranks `b`, else as `b`'s ranks `a`.
    const linked = this.related[a]!.get(b) ?? this.related[b]!.get(a)
    const tier = codeA.slice(0, 2) === codeB.slice(0, 2) || linked === 0 ? linked : undefined
    if (tier !== undefined) return {value: TIER_VALUE[tier]!, how: TIER_NAME[tier]!}
    if (codeA.slice(0, 6) === codeB.slice(0, 6)) return {value: NEARNESS.broad, how: 'field'}
    if (codeA.slice(0, 5) === codeB.slice(0, 5)) return {value: NEARNESS.minor, how: 'field'}
    return {value: 0, how: 'none'}
  }
}

/** Where `key` is in `sorted` (sorted by code unit), or -1. */
function sortedIndex(sorted: readonly string[], key: string): number {
  let low = 0
  let high = sorted.length - 1
  while (low <= high) {
    const middle = (low + high) >>> 1
    const value = sorted[middle]!
    if (value === key) return middle
    if (value < key) low = middle + 1
    else high = middle - 1
  }
  return -1
}
