import type {JobResponse} from '../jobs/job.js'
import {formatSalary, judgeSalary, type SalaryFloor} from '../jobs/salary.js'
import {escapeRegExp, knownPlace, overlaps, placesIn} from './places.js'
import {normaliseTerm, type Profile, SENIORITIES, type Seniority, spellings} from './profile.js'

/**
 * The score of a job against a profile, 0 to 100, as a sum of parts a user can predict (docs/MATCHING.md):
 *
 * - skills, up to 70: 70 x (sum of weight x match) / (sum of weights), where a skill's match is 1 in the title,
 *   0.6 in the board's tags, 0.6 x n / (n + 1) for n mentions in the description's sentences (0.3, 0.4, 0.45, ...
 *   never more than 0.6), and 0.15 when it is only named in a keyword list (a line of six or more comma-separated
 *   entries); the best of these counts. Without skills in the profile this part is 35 for every job.
 * - level, up to 10: the job's level (the board's field, else words of the title) against the profile's: the same
 *   10, one step apart 5, further 0, unknown 5; 10 when the profile asks for any level.
 * - place, up to 15: 15 when the job fits one of the profile's places, 8 when it cannot be told, 0 when the job
 *   rules them out (and 20 more taken off); 15 without places in the profile.
 * - pay, up to 5: 5 above the salary floor or without one, 2 when the salary cannot be compared, 0 below it.
 * - avoided terms: 20 off for each in the title, 10 for each only in the description or tags, at most 40.
 */
interface ScoredJob {
  score: number
  /** Short lines for people: `+ typescript (title)`, `- php (description)`, `location: remote (Europe) fits`. */
  reasons: string[]
  /** Every part of the score and what it is made of, for `jobagent jobs <id> --explain`. */
  parts: ScorePart[]
}

export interface ScorePart {
  part: 'skills' | 'level' | 'place' | 'pay' | 'avoid'
  points: number
  /** What earned or cost the points, one line each. */
  detail: string[]
}

/** A part of the score and, when it says something about the job against the profile, the reason it shows. */
interface Judgement {
  part: ScorePart
  reason?: string
}

/** A level, place or pay part whose one detail line is also one of the job's reasons, under `label`. */
function judged(part: ScorePart['part'], label: string, points: number, text: string): Judgement {
  return {part: {part, points, detail: [text]}, reason: `${label}: ${text}`}
}

/** A part that holds for every job alike (nothing in the profile to compare): no reason to show. */
const given = (part: ScorePart['part'], points: number, text: string): Judgement => ({
  part: {part, points, detail: [text]},
})

interface ScoreOptions {
  minSalary?: SalaryFloor | null
  fx?: Record<string, number>
  /** Every skill's line in the skills part (for --explain); lists and the run do without them. */
  explain?: boolean
}

const SKILL_POINTS = 70
const TITLE_MATCH = 1
const TAG_MATCH = 0.6
const DESCRIPTION_MATCH = 0.6
const KEYWORD_LIST_MATCH = 0.15
/** A line of this many comma-separated entries, or more, is a keyword list rather than a sentence. */
const KEYWORD_LIST_ENTRIES = 6
/** A board's tag list longer than this is read as a keyword list too (some boards attach dozens to every job). */
const MAX_TAGS = 10

type Field = 'title' | 'tags' | 'description'
interface Mentions {
  count: number
  /** Those of the mentions that stand in a keyword list. */
  inLists: number
}
/** The terms a text names, by index, in the order they first occur. */
type Hits = ReadonlyMap<number, Mentions>
const NO_HITS: Hits = new Map()

/**
 * What a description says of one profile's terms (descriptionTerms): all that scoring needs of its text, a few
 * numbers where the text is several KB.
 */
export type DescriptionTerms = Hits & {readonly __descriptionTerms?: never}

/** Words of a title or a board's level field, and the level each names. */
const LEVEL_WORDS: readonly [RegExp, Seniority][] = [
  [/\b(junior|jr|entry[ -]level|graduate|intern(ship)?|trainee|apprentice)\b/i, 'junior'],
  [/\b(staff|principal|distinguished)\b/i, 'staff'],
  // "Manager" is left out: in "Customer Success Manager" or "Product Manager" it names the role, not a level.
  [/\b(lead|head of|director|vp|chief)\b/i, 'lead'],
  [/\b(senior|sr)\b/i, 'senior'],
  [/\b(mid|mid-level|intermediate|regular)\b/i, 'mid'],
]

interface TrieNode {
  next: Map<string, TrieNode>
  end: boolean
}

/** Spellings as one pattern sharing their prefixes (`t(?:ypescript|s)`): the regex engine tries far fewer paths. */
function triePattern(spellings: readonly string[]): string {
  const root: TrieNode = {next: new Map(), end: false}
  for (const spelling of spellings) {
    let node = root
    for (const character of spelling) {
      let next = node.next.get(character)
      if (!next) {
        next = {next: new Map(), end: false}
        node.next.set(character, next)
      }
      node = next
    }
    node.end = true
  }
  const emit = (node: TrieNode): string => {
    const branches = [...node.next].map(([character, next]) => {
      const text = character === ' ' ? '\\s+' : escapeRegExp(character)
      return `${text}${emit(next)}`
    })
    if (branches.length === 0) return ''
    const group = branches.length === 1 ? branches[0]! : `(?:${branches.join('|')})`
    return node.end ? `(?:${group})?` : group
  }
  return emit(root)
}

/**
 * Spellings as whole words or phrases: `\b` where a spelling starts or ends with a letter or digit, a look-around
 * where it starts or ends with a sign (`.net`, `c#`); one prefix-sharing group for each kind of edge.
 */
function wordsPattern(spellings: readonly string[]): string {
  const groups = new Map<string, string[]>()
  for (const spelling of spellings) {
    const start = /^\w/.test(spelling) ? '\\b' : '(?<![A-Za-z0-9])'
    const end = /\w$/.test(spelling) ? '\\b' : '(?![A-Za-z0-9])'
    const key = `${start} ${end}`
    groups.set(key, [...(groups.get(key) ?? []), spelling])
  }
  return [...groups]
    .map(([key, members]) => {
      const [start, end] = key.split(' ')
      return `${start}${triePattern(members)}${end}`
    })
    .join('|')
}

interface Term {
  /** As the profile writes it, for reasons. */
  name: string
  kind: 'skill' | 'avoid'
  weight: number
}

/** The profile's terms as one pattern, so each text is read once whatever the number of terms. */
class TermScanner {
  readonly terms: Term[] = []
  /** The indexes of the skills among the terms, and the sum of their weights. */
  readonly skills: number[] = []
  readonly skillWeight: number
  /** The indexes of the avoided terms. */
  readonly avoided: number[] = []
  private readonly pattern: RegExp | null
  private readonly termOf = new Map<string, number>()

  constructor(profile: Profile) {
    const add = (name: string, kind: Term['kind'], weight: number) => {
      const index = this.terms.push({name: normaliseTerm(name), kind, weight}) - 1
      for (const spelling of spellings(name)) if (!this.termOf.has(spelling)) this.termOf.set(spelling, index)
      return index
    }
    let weights = 0
    for (const [name, weight] of Object.entries(profile.skills)) {
      this.skills.push(add(name, 'skill', weight))
      weights += weight
    }
    this.skillWeight = weights
    for (const name of profile.avoid) this.avoided.push(add(name, 'avoid', 0))
    const all = [...this.termOf.keys()]
    this.pattern = all.length === 0 ? null : new RegExp(wordsPattern(all), 'gi')
  }

  /** Each term's mentions in `text`: their count, and how many stand in a keyword list. */
  scan(text: string): Hits {
    if (!this.pattern || text === '') return NO_HITS
    // Most texts name none of the terms: they share one empty result.
    let found: Map<number, Mentions> | undefined
    this.pattern.lastIndex = 0
    for (let match = this.pattern.exec(text); match !== null; match = this.pattern.exec(text)) {
      const index = this.termOf.get(match[0].toLowerCase().replace(/\s+/g, ' '))
      if (index === undefined) continue
      found ??= new Map()
      const seen = found.get(index) ?? {count: 0, inLists: 0}
      seen.count++
      if (inKeywordList(text, match.index)) seen.inLists++
      found.set(index, seen)
    }
    return found ?? NO_HITS
  }
}

/** Whether the line around `at` is a keyword list: many short comma-separated entries rather than a sentence. */
function inKeywordList(text: string, at: number): boolean {
  const start = text.lastIndexOf('\n', at) + 1
  const end = text.indexOf('\n', at)
  const line = text.slice(start, end === -1 ? text.length : end)
  let commas = 0
  for (let index = line.indexOf(','); index !== -1; index = line.indexOf(',', index + 1)) commas++
  if (commas + 1 < KEYWORD_LIST_ENTRIES) return false
  const words = line.split(/\s+/).length
  return words / (commas + 1) <= 3
}

/** Any of the level words: one test passes over the many titles that name no level. */
const ANY_LEVEL_WORD = new RegExp(LEVEL_WORDS.map(([words]) => words.source).join('|'), 'i')

function levelOf(text: string | null): Seniority | null {
  if (!text || !ANY_LEVEL_WORD.test(text)) return null
  for (const [words, level] of LEVEL_WORDS) if (words.test(text)) return level
  return null
}

const round = (points: number) => Math.round(points * 10) / 10
const list = (names: readonly string[]) => names.join(', ')

/** Scores jobs against one profile. */
export function scoreJobs(jobs: readonly JobResponse[], profile: Profile, options: ScoreOptions = {}): ScoredJob[] {
  const scoreJob = jobScorer(profile, options)
  return jobs.map((job) => scoreJob(job))
}

/**
 * Scores one job at a time against one profile; the scanner and the profile's places are worked out once. The
 * description is the job's own unless given: a parked one's text, or what descriptionTerms read of it.
 */
function jobScorer(
  profile: Profile,
  options: ScoreOptions,
): (job: JobResponse, description?: string | null | DescriptionTerms) => ScoredJob {
  const scanner = new TermScanner(profile)
  const wanted = profile.locations.map(normaliseTerm).filter((place) => place !== '')
  const others = wanted.filter((place) => place !== 'remote')
  const mine = others.map(knownPlace)
  // Jobs of one board share a handful of location texts: each is read for places, and compared with the
  // profile's, once.
  const known = new Map<string, Located>()
  const locate = (text: string) => {
    let found = known.get(text)
    if (!found) {
      const theirs = placesIn(text)
      found = {namesPlace: theirs.length > 0, fits: theirs.some((place) => mine.some((want) => overlaps(place, want)))}
      known.set(text, found)
    }
    return found
  }
  const places: Places = {
    wanted: wanted.length > 0,
    wantsRemote: wanted.includes('remote'),
    mine,
    named: list(others),
    locate,
  }
  return (job, description = job.description) => scoreOne(job, description, profile, scanner, places, options)
}

/** The profile's places, as every job is compared with them. */
interface Places {
  /** Whether the profile names any place. */
  wanted: boolean
  wantsRemote: boolean
  /** The known places the profile names besides `remote`. */
  mine: readonly string[]
  /** Those places as the reasons name them (`europe, germany`). */
  named: string
  locate: (text: string) => Located
}

/** What a location text says against the profile's places. */
interface Located {
  /** Whether the text names any known place. */
  namesPlace: boolean
  /** Whether one of those places is, holds or lies in one of the profile's. */
  fits: boolean
}

function scoreOne(
  job: JobResponse,
  description: string | null | DescriptionTerms,
  profile: Profile,
  scanner: TermScanner,
  places: Places,
  options: ScoreOptions,
): ScoredJob {
  const hits: Record<Field, Hits> = {
    title: scanner.scan(job.title),
    tags: scanner.scan(job.tags.join(' | ')),
    description:
      typeof description === 'string' || description === null ? scanner.scan(description ?? '') : description,
  }
  const skills = skillsPart(scanner, hits, job.tags.length > MAX_TAGS, options.explain ?? false)
  const level = levelPart(job, profile)
  const place = placePart(job, places)
  const pay = payPart(job, options)
  const avoid = avoidPart(scanner, hits)
  const total = skills.points + level.part.points + place.part.points + pay.part.points + avoid.points
  const reasons = termReasons(scanner, hits)
  for (const {reason} of [level, place, pay]) if (reason !== undefined) reasons.push(reason)
  return {
    score: Math.max(0, Math.min(100, Math.round(total))),
    reasons,
    parts: [skills, level.part, place.part, pay.part, avoid],
  }
}

/** Where a skill can match, in the order that wins a tie, as the explanation names them. */
const SKILL_FIELDS = ['in the title', "in the board's tags", 'in the description', 'only in a keyword list'] as const

function skillsPart(
  scanner: TermScanner,
  hits: Record<Field, Hits>,
  tagsAreList: boolean,
  explain: boolean,
): ScorePart {
  if (scanner.skills.length === 0) {
    return {part: 'skills', points: SKILL_POINTS / 2, detail: ['no skills in the profile: 35 for every job']}
  }
  const detail: string[] = []
  let earned = 0
  for (const index of scanner.skills) {
    const term = scanner.terms[index]!
    const description = hits.description.get(index)
    const prose = description ? description.count - description.inLists : 0
    const title = hits.title.has(index) ? TITLE_MATCH : 0
    const tags = hits.tags.has(index) ? (tagsAreList ? KEYWORD_LIST_MATCH : TAG_MATCH) : 0
    const described = (DESCRIPTION_MATCH * prose) / (prose + 1)
    const listed = description && description.inLists > 0 ? KEYWORD_LIST_MATCH : 0
    const match = Math.max(title, tags, described, listed)
    const points = (SKILL_POINTS * term.weight * match) / scanner.skillWeight
    earned += points
    if (!explain) continue
    // The first of SKILL_FIELDS with the best match is the one named.
    const best = [title, tags, described, listed].indexOf(match)
    const where = best === 2 ? `${prose} mention(s) in the description` : SKILL_FIELDS[best]
    detail.push(
      match > 0
        ? `${term.name} (weight ${term.weight}): ${where}, match ${round(match)}, +${round(points)}`
        : `${term.name} (weight ${term.weight}): not found, +0`,
    )
  }
  return {part: 'skills', points: earned, detail}
}

function levelPart(job: JobResponse, profile: Profile): Judgement {
  if (profile.seniority === 'any') return given('level', 10, 'any level wanted: +10')
  const level = levelOf(job.seniority) ?? levelOf(job.title)
  if (level === null) return given('level', 5, 'level not stated: +5')
  const distance = Math.abs(SENIORITIES.indexOf(level) - SENIORITIES.indexOf(profile.seniority))
  const points = distance === 0 ? 10 : distance === 1 ? 5 : 0
  return judged('level', 'level', points, `${level}, wanted ${profile.seniority}: +${points}`)
}

function placePart(job: JobResponse, {wanted, wantsRemote, mine, named, locate}: Places): Judgement {
  if (!wanted) return given('place', 15, 'no places in the profile: +15')
  const where = job.regions.length > 0 ? job.regions.join(', ') : job.location
  // A board without a remote field may still say so in the location (`Remote, Italy`).
  const remote = job.remote ?? (/\bremote\b/i.test(job.location) ? true : null)
  const {namesPlace, fits} = locate(where)
  const fitting = (text: string) => judged('place', 'location', 15, `${text} fits`)
  const elsewhere = (text: string) => judged('place', 'location', -20, `${text}, not ${named}: -20`)
  const unclear = (text: string) => judged('place', 'location', 8, `${text}: cannot tell, +8`)
  if (remote === true) {
    // A remote job takes anyone unless the board names places; then one of them must be the user's.
    if (!namesPlace) return wantsRemote ? fitting('remote') : unclear('remote, not asked for')
    if (fits) return fitting(`remote (${where})`)
    return mine.length === 0 ? unclear(`remote for ${where}`) : elsewhere(`remote for ${where} only`)
  }
  if (fits) return fitting(where)
  if (namesPlace) return elsewhere(where)
  return unclear(where || 'place not stated')
}

function payPart(job: JobResponse, options: ScoreOptions): Judgement {
  const floor = options.minSalary
  if (!floor) return given('pay', 5, 'no salary floor: +5')
  const salary = job.salary ? formatSalary(job.salary) : 'no salary'
  const against = judgeSalary(job.salary, floor, options.fx ?? {})
  if (against === 'above') return judged('pay', 'salary', 5, `${salary}, above floor: +5`)
  if (against === 'below') return judged('pay', 'salary', 0, `${salary}, below floor: +0`)
  return judged('pay', 'salary', 2, `${salary}, cannot compare with the floor: +2`)
}

function avoidPart(scanner: TermScanner, hits: Record<Field, Hits>): ScorePart {
  const detail: string[] = []
  let lost = 0
  for (const index of scanner.avoided) {
    const term = scanner.terms[index]!
    if (hits.title.has(index)) {
      lost += 20
      detail.push(`${term.name} in the title: -20`)
    } else if (hits.description.has(index) || hits.tags.has(index)) {
      lost += 10
      detail.push(`${term.name} in the description or tags: -10`)
    }
  }
  const points = -Math.min(40, lost)
  return {part: 'avoid', points, detail: detail.length > 0 ? detail : ['no avoided term']}
}

/** The reasons of the terms: the skills found, by field, and the avoided terms found. */
function termReasons(scanner: TermScanner, hits: Record<Field, Hits>): string[] {
  const reasons: string[] = []
  const claimed = new Set<number>()
  for (const field of ['title', 'tags', 'description'] as const) {
    const names: string[] = []
    const avoided: string[] = []
    for (const index of hits[field].keys()) {
      const term = scanner.terms[index]!
      if (claimed.has(index)) continue
      claimed.add(index)
      if (term.kind === 'avoid') avoided.push(term.name)
      else names.push(term.name)
    }
    if (names.length > 0) reasons.push(`+ ${list(names)} (${field})`)
    if (avoided.length > 0) reasons.push(`- ${list(avoided)} (${field})`)
  }
  return reasons
}

/**
 * Reads descriptions for `matching`'s profile as scoring would: a run reads each one as its board answers and keeps
 * this instead of the text. The terms are the profile's, in its order, so any scorer of the same profile reads
 * them alike.
 */
export function descriptionTerms(matching: Matching): (description: string) => DescriptionTerms {
  const scanner = new TermScanner(matching.profile)
  return (description) => scanner.scan(description)
}

/** A profile and what else scoring reads: the salary floor and exchange rates of the search. */
export interface Matching {
  profile: Profile
  options: ScoreOptions
}

/** A copy of `job` with its score and reasons. */
function withScore<J extends JobResponse, S extends number | null>(job: J, score: S, reasons: string[]) {
  // Copied first, then given the two keys: V8 (Node 20) builds `{...job, score, reasons}` and a multi-source
  // Object.assign on a slow path, several times slower for jobs of many keys such as the job store's.
  const scored = Object.assign({}, job) as J & {score: S; reasons: string[]}
  scored.score = score
  scored.reasons = reasons
  return scored
}

/**
 * `jobs` with their score and reasons, highest score first, those below `minScore` left out; jobs of equal score
 * keep their order (the listings pass newest first). Without matching (no profile) every job has score null and
 * the order and the jobs are kept. `descriptionOf` gives the description a job is scored on when it is not the
 * job's own: a parked one's text, or what descriptionTerms read of it.
 */
export function rankJobs<J extends JobResponse>(
  jobs: readonly J[],
  matching: Matching | null,
  options: {minScore?: number; descriptionOf?: (job: J) => string | null | DescriptionTerms} = {},
): (J & {score: number | null; reasons: string[]})[] {
  if (!matching) return jobs.map((job) => withScore(job, null, []))
  const scoreJob = jobScorer(matching.profile, matching.options)
  const {minScore = 0, descriptionOf} = options
  // One job at a time, so that the parts of each score, which a ranking does not keep, are dropped at once, and
  // so is a description read for it.
  return jobs
    .map((job) => {
      const {score, reasons} = scoreJob(job, descriptionOf ? descriptionOf(job) : job.description)
      return withScore(job, score, reasons)
    })
    .filter((job) => job.score >= minScore)
    .sort((a, b) => b.score - a.score)
}
