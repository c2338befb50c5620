import type {JobResponse} from '../jobs/job.js'
import {formatSalary, judgeSalary, type SalaryFloor} from '../jobs/salary.js'
import {parseDateTime, utcInstant} from '../time.js'
import type {Knowledge} from './knowledge.js'
import {EVERYWHERE, type Places, STATEMENT_WORDS, statementAround} from './places.js'
import {normaliseTerm, type Profile, SENIORITIES, type Seniority} from './profile.js'
import {RoleMatcher} from './role-match.js'
import {type SkillSpellings, standsAsSkill} from './skills.js'
import {DescriptionLines, SECTION_WEIGHT, SECTIONS, type Section, sectionRank} from './text-kinds.js'
import {triePattern, wordsPattern} from './trie-pattern.js'
import type {VerdictJudge, VerdictModel, VerdictNeighbour} from './verdicts.js'

/**
 * The score of a job against a profile, 0 to 100: gates times relevance (docs/MATCHING.md).
 *
 *   score = 100 x relevance x (1 + verdicts) x gates x (1 + adjustments), at most 100
 *
 * - relevance, 0 to 1: 0.6 x role + 0.4 x skills with both in the profile, else the one there is (0.5 for every
 *   job with neither). The role is how near the title is to a wanted role (same work 1, close 0.7, related 0.4,
 *   same field 0.2); skills count once each by where they stand, weighted by the user's weight and their rarity.
 * - verdicts, -0.3 to +0.5: what the person's likes and dismissals teach (verdicts.ts).
 * - gates, each a factor: not open to where the person lives 0.2; on site in a place not accepted 0.2; an avoided
 *   term in the title 0.2, elsewhere in what the posting says of the job 0.5; the level two or more steps away 0.5;
 *   pay below the floor 0.5.
 * - adjustments, -0.08 to +0.13: a place the person named +0.05, the level wanted +0.05, posted within a week of the
 *   newest job +0.03 (more than 30 days before it -0.03), an avoided term only in boilerplate -0.05.
 *
 * A job without role or skill evidence scores 0 whatever else it has; a gated job ranks below an ungated one of
 * equal relevance (0.5 x 1.13 < 0.92).
 */
export interface ScoredJob {
  score: number
  /** The unrounded score, for ordering jobs whose rounded scores are equal. */
  rank: number
  /** Short lines for people: `+ role: backend engineer`, `+ typescript (title)`, `gate: ...`. */
  reasons: string[]
  /** Every factor of the score and what it is made of, for `jobagent jobs <id> --explain`. */
  parts: ScorePart[]
}

export interface ScorePart {
  part: 'role' | 'skills' | 'relevance' | 'verdicts' | 'gates' | 'adjustments'
  /** The part's value: relevance, role and skills 0 to 1, verdicts and adjustments a change, gates a factor. */
  value: number
  /** What made the value, one line each. */
  detail: string[]
}

export interface ScoreOptions {
  minSalary?: SalaryFloor | null
  fx?: Record<string, number>
}

/** A profile and what else scoring reads: the salary floor and exchange rates of the search, and the knowledge. */
export interface Matching {
  profile: Profile
  options: ScoreOptions
  knowledge: Knowledge
}

const ROLE_SHARE = 0.6
/** Skills evidence worth this share of the profile's weights, or more, is full skills relevance. */
const SKILLS_FULL = 0.6
/** Relevance for every job when the profile names neither roles nor skills. */
const UNKNOWN_RELEVANCE = 0.5
/** Each job listed counts as if this many more listed none of the skills: a term's rarity is not read off few jobs. */
const RARITY_PRIOR = 10
const RARITY_FLOOR = 0.3
/** A board's tag list longer than this is a keyword list: it says nothing of the job. */
const MAX_TAGS = 10

const GATE = {home: 0.2, onSite: 0.2, avoidTitle: 0.2, avoidText: 0.5, level: 0.5, pay: 0.5} as const
const ADJUST = {place: 0.05, level: 0.05, recent: 0.03, stale: -0.03, avoidBody: -0.05} as const
const RECENT_DAYS = 7
const STALE_DAYS = 30

/** Words of a title or a board's level field, and the level each names. */
const LEVEL_WORDS: readonly [RegExp, Seniority][] = [
  // "Manager" is left out: in "Customer Success Manager" or "Product Manager" it names the role, not a level.
  // Read first, so that an "Associate Director" or a "Graduate Program Director" leads.
  [/\b(head of|director|vp|vice president|svp|evp|chief)\b/i, 'lead'],
  [
    /\b(junior|jr|associate|entry[ -]level|graduate|intern(ship)?|trainee|apprentice(ship)?|ausbildung|werkstudent)\b/i,
    'junior',
  ],
  // A "Lead Designer" leads the work, one step above senior, as staff and principal do; a head leads people. A
  // "Staff Nurse" or "Staff Accountant" is no level but the occupation's own title (O*NET lists them so).
  [
    /\b(staff(?! (nurse|rn|accountant|auditor|pharmacist|physician|psychologist|psychiatrist|therapist|writer|reporter|sonographer|assistant)\b)|principal|distinguished|lead(?! gen))\b/i,
    'staff',
  ],
  [/\b(senior|sr)\b/i, 'senior'],
  [/\b(mid|mid-level|intermediate|regular)\b/i, 'mid'],
]
const ANY_LEVEL_WORD = new RegExp(LEVEL_WORDS.map(([words]) => words.source).join('|'), 'i')

function levelOf(text: string | null): Seniority | null {
  if (!text || !ANY_LEVEL_WORD.test(text)) return null
  for (const [words, level] of LEVEL_WORDS) if (words.test(text)) return level
  return null
}

/** The terms a text names, by index, each with the best place it stands in. */
type Hits = ReadonlyMap<number, Section>
const NO_HITS: Hits = new Map()

/**
 * What a description says for one profile (descriptionTerms): the profile's terms it names and where, and the
 * places it restricts applicants to; all that scoring needs of its text, a few numbers where the text is several KB.
 */
export interface DescriptionTerms {
  readonly terms: Hits
  readonly eligible: readonly string[]
}
const NO_TERMS: DescriptionTerms = {terms: NO_HITS, eligible: []}

interface Term {
  /** As the profile writes it, for reasons. */
  name: string
  kind: 'skill' | 'avoid'
  weight: number
}

/** The profile's terms as one pattern, so each text is read once, in one pass, whatever the number of terms. */
class TermScanner {
  readonly terms: Term[] = []
  readonly skills: number[] = []
  readonly skillWeight: number
  readonly avoided: number[] = []
  private readonly pattern: RegExp | null
  private readonly descriptionPattern: RegExp
  private readonly termOf = new Map<string, number>()
  /** The spellings that may be plain words: they count only where they stand as the skill (skills.ts). */
  private readonly ambiguous = new Set<string>()

  constructor(
    profile: Profile,
    private readonly places: Places,
    skills: SkillSpellings,
  ) {
    const add = (name: string, kind: Term['kind'], weight: number): number | null => {
      const normal = normaliseTerm(name)
      // A blank term would match between every two characters; the config refuses it, and so does the scanner.
      if (normal === '') return null
      const index = this.terms.push({name: normal, kind, weight}) - 1
      for (const {spelling, ambiguous} of skills.of(normal)) {
        if (this.termOf.has(spelling)) continue
        this.termOf.set(spelling, index)
        if (ambiguous) this.ambiguous.add(spelling)
      }
      return index
    }
    let weights = 0
    for (const [name, weight] of Object.entries(profile.skills)) {
      const index = add(name, 'skill', weight)
      if (index === null) continue
      this.skills.push(index)
      weights += weight
    }
    this.skillWeight = weights
    for (const name of profile.avoid) {
      const index = add(name, 'avoid', 0)
      if (index !== null) this.avoided.push(index)
    }
    const all = [...this.termOf.keys()]
    // The texts are read in lower case, as the spellings are written: no case-insensitive matching needed.
    this.pattern = all.length === 0 ? null : new RegExp(wordsPattern(all), 'g')
    // A description is read once for both: the terms (group 1) and the words of a line that says who may apply
    // (group 2); each further pattern would be another pass over several KB.
    this.descriptionPattern = new RegExp(
      // Without terms, group 1 is a group that never matches, so group 2 still holds the statement words.
      `(${all.length === 0 ? '(?!)' : wordsPattern(all)})|(${triePattern(STATEMENT_WORDS)})`,
      'g',
    )
  }

  /** Each term named in `text`, all section in `section`. */
  scanAs(text: string, section: Section): Hits {
    if (!this.pattern || text === '') return NO_HITS
    let found: Map<number, Section> | undefined
    // A board's tag names the technology whatever its case; a title's words must stand as it.
    const original = section === 'title' ? text : null
    this.each(text.toLowerCase(), (index, at, spelling, length) => {
      if (original !== null && this.ambiguous.has(spelling) && !standsAsSkill(original, at, length, true)) return
      found ??= new Map()
      found.set(index, section)
    })
    return found ?? NO_HITS
  }

  /**
   * Each term named in a description (`lower`: in lower case), at the best place it stands, and the places its lines
   * that say who may apply restrict applicants to: one pass over the text, its lines read only where it matters.
   */
  scanDescription(text: string, lower: string): DescriptionTerms {
    if (text === '') return NO_TERMS
    let lines: DescriptionLines | undefined
    let found: Map<number, Section> | undefined
    let eligible: Set<string> | undefined
    let statementEnd = -1
    const pattern = this.descriptionPattern
    pattern.lastIndex = 0
    for (let match = pattern.exec(lower); match !== null; match = pattern.exec(lower)) {
      const at = match.index
      if (match[1] === undefined) {
        // A word of a statement: its line, or its sentence in a paragraph, is read once.
        if (at < statementEnd) continue
        const {statement, end} = statementAround(lower, at)
        statementEnd = end
        for (const place of this.places.statementPlaces(statement)) {
          eligible ??= new Set()
          eligible.add(place)
        }
        continue
      }
      const spelling = this.termOf.has(match[1]) ? match[1] : match[1].replace(/\s+/g, ' ')
      const index = this.termOf.get(spelling)
      if (index === undefined) continue
      if (this.ambiguous.has(spelling) && !standsAsSkill(text, at, match[1].length)) continue
      // Most descriptions name few of the terms: their lines are read only when one does.
      lines ??= new DescriptionLines(text, lower)
      const section = lines.sectionAt(at)
      found ??= new Map()
      const before = found.get(index)
      if (before === undefined || sectionRank(section) > sectionRank(before)) found.set(index, section)
    }
    return {terms: found ?? NO_HITS, eligible: eligible ? [...eligible] : []}
  }

  private each(text: string, visit: (index: number, at: number, spelling: string, length: number) => void): void {
    const pattern = this.pattern!
    pattern.lastIndex = 0
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      // No term is empty, but a pattern that matched nothing must still move on.
      if (match[0] === '') pattern.lastIndex++
      const spelling = this.termOf.has(match[0]) ? match[0] : match[0].replace(/\s+/g, ' ')
      const index = this.termOf.get(spelling)
      if (index !== undefined) visit(index, match.index, spelling, match[0].length)
    }
  }
}

/** One job as scoring sees it before any job is scored: the terms it names and where. */
interface AnalysedJob {
  job: JobResponse
  hits: Hits
  /** The places the description restricts applicants to ([] when it does not say). */
  eligible: readonly string[]
}

/** How many of the jobs listed together name each term (a skill's rarity is its share), and the newest posting. */
class ListedSet {
  private readonly naming = new Map<number, number>()
  private listed = 0
  newest = Number.NEGATIVE_INFINITY

  constructor(private readonly dates: Map<string, number | null>) {}

  add({job, hits}: AnalysedJob): void {
    this.listed++
    for (const [index, section] of hits) {
      if (SECTION_WEIGHT[section] > 0) this.naming.set(index, (this.naming.get(index) ?? 0) + 1)
    }
    const posted = postedAt(job, this.dates)
    if (posted !== null && posted > this.newest) this.newest = posted
  }

  readonly rarity = (index: number): number =>
    1 - (1 - RARITY_FLOOR) * ((this.naming.get(index) ?? 0) / (this.listed + RARITY_PRIOR))
}

/**
 * Scores jobs against one profile. The jobs listed together are read first, so that a skill's rarity is its
 * share among them, and the newest posting among them is the reference for recency.
 */
class Scorer {
  private readonly scanner: TermScanner
  private readonly roles: RoleMatcher
  private readonly places: PlaceRules
  private readonly dates = new Map<string, number | null>()

  constructor(
    private readonly matching: Matching,
    private readonly verdictModel: VerdictModel | null,
  ) {
    this.scanner = new TermScanner(matching.profile, matching.knowledge.places, matching.knowledge.skills)
    this.roles = new RoleMatcher(matching.profile.roles, matching.knowledge.occupations)
    this.places = new PlaceRules(matching.profile, matching.knowledge.places)
  }

  /** The preparation an occupation takes (O*NET job zone 1-5), or null when the data has none. */
  private jobZone(occupation: number): number | null {
    return this.matching.knowledge.occupations.occupation(occupation).zone
  }

  /** The terms of a description, as the profile's terms are found in it. */
  readonly analyseText = (description: string | null): DescriptionTerms =>
    analyseDescription(this.scanner, description ?? '')

  /** The job with its description's terms merged with those of its tags and its title. */
  analyse(job: JobResponse, description: DescriptionTerms): AnalysedJob {
    const merged = new Map<number, Section>()
    const merge = (hits: Hits) => {
      for (const [index, section] of hits) {
        const before = merged.get(index)
        if (before === undefined || sectionRank(section) > sectionRank(before)) merged.set(index, section)
      }
    }
    merge(description.terms)
    merge(this.scanner.scanAs(job.tags.join(' | '), job.tags.length > MAX_TAGS ? 'nothing' : 'tags'))
    merge(this.scanner.scanAs(job.title, 'title'))
    return {job, hits: merged, eligible: description.eligible}
  }

  /**
   * Every job scored among the others (those `among` holds, when given); `explain` says which ones get every
   * part of their score.
   */
  scoreAll(
    analysed: readonly AnalysedJob[],
    explain: (index: number) => boolean = () => false,
    among: (index: number) => boolean = () => true,
  ): ScoredJob[] {
    const counted = analysed.filter((_, index) => among(index))
    const set = this.listedSet()
    for (const one of counted) set.add(one)
    // Verdicts read how rare each term is among the same jobs.
    const judge =
      this.verdictModel && !this.verdictModel.empty ? this.verdictModel.among(counted.map((one) => one.job)) : null
    return analysed.map((one, index) => this.scoreIn(set, one, explain(index), judge))
  }

  /** What scoring reads of the jobs listed together, gathered one job at a time. */
  listedSet(): ListedSet {
    return new ListedSet(this.dates)
  }

  /** One job scored among the jobs of `set`, without verdicts' judgement unless `judge` is given. */
  scoreIn(set: ListedSet, one: AnalysedJob, explain = false, judge: VerdictJudge | null = null): ScoredJob {
    return this.score(one, set.rarity, set.newest, explain, judge)
  }

  private score(
    {job, hits, eligible}: AnalysedJob,
    rarity: (index: number) => number,
    newest: number,
    explain: boolean,
    judge: VerdictJudge | null,
  ): ScoredJob {
    const {profile} = this.matching
    const reasons: string[] = []
    const parts: ScorePart[] = []

    // Relevance: the role and the skills.
    const role = this.roles.match(job.title)
    if (role.reason) reasons.push(role.reason)
    const skills = this.skills(hits, rarity, explain)
    reasons.push(...skills.reasons)
    const wantsRoles = this.roles.wantsRoles
    const wantsSkills = this.scanner.skills.length > 0
    const relevance =
      wantsRoles && wantsSkills
        ? ROLE_SHARE * role.value + (1 - ROLE_SHARE) * skills.value
        : wantsRoles
          ? role.value
          : wantsSkills
            ? skills.value
            : UNKNOWN_RELEVANCE
    if (explain) {
      if (wantsRoles) {
        const reason = role.reason ?? 'no wanted role near the title: 0'
        const {knowledge} = this.matching
        const source = `(${knowledge.occupations.source} occupations, knowledge ${knowledge.version})`
        parts.push({part: 'role', value: role.value, detail: [reason, source]})
      }
      if (wantsSkills) parts.push({part: 'skills', value: skills.value, detail: skills.detail})
      parts.push({
        part: 'relevance',
        value: relevance,
        detail: [
          wantsRoles && wantsSkills
            ? `0.6 x role ${fixed(role.value)} + 0.4 x skills ${fixed(skills.value)} = ${fixed(relevance)}`
            : wantsRoles || wantsSkills
              ? `${wantsRoles ? 'role' : 'skills'} alone: ${fixed(relevance)}`
              : 'no roles or skills in the profile: 0.5 for every job',
        ],
      })
    }

    // What the person's verdicts teach, on the relevance.
    const learned = judge?.judge(job) ?? null
    const change = learned && relevance > 0 ? learned.change : 0
    const liked = change !== 0 && learned?.liked ? verdictReason('liked', learned.liked) : null
    const dismissed = change !== 0 && learned?.dismissed ? verdictReason('dismissed', learned.dismissed) : null
    if (liked) reasons.push(`+ ${liked}`)
    if (dismissed) reasons.push(`- ${dismissed}`)
    if (explain && this.verdictModel && !this.verdictModel.empty) {
      parts.push({
        part: 'verdicts',
        value: change,
        detail: [
          `${this.verdictModel.likes} liked, ${this.verdictModel.dismissals} dismissed: ${signed(change)}`,
          ...(liked ? [liked] : []),
          ...(dismissed ? [dismissed] : []),
        ],
      })
    }

    // Gates and adjustments.
    const gates: string[] = []
    const adjustments: string[] = []
    let factor = 1
    let adjust = 0
    const gate = (value: number, text: string) => {
      factor *= value
      gates.push(`${text}: x${value}`)
      reasons.push(`gate: ${text} (x${value})`)
    }
    const adjustBy = (value: number, text: string, reason?: string) => {
      adjust += value
      adjustments.push(`${text}: ${signed(value)}`)
      if (reason) reasons.push(reason)
    }

    const place = this.places.judge(job, eligible)
    if (place.gate) gate(place.gate === 'home' ? GATE.home : GATE.onSite, place.text)
    else if (place.preferred) adjustBy(ADJUST.place, `${place.text}, a place you named`, `location: ${place.text} fits`)
    else if (place.text && this.places.named) reasons.push(`location: ${place.text}`)

    // An avoided term rules a job out where the posting says what the job is; named only in the employer's
    // boilerplate or a keyword list it costs a little.
    for (const index of this.scanner.avoided) {
      const section = hits.get(index)
      if (section === undefined) continue
      const name = this.scanner.terms[index]!.name
      if (section === 'title') gate(GATE.avoidTitle, `${name} in the title`)
      else if (section === 'nothing') adjustBy(ADJUST.avoidBody, `${name} in boilerplate`, `- ${name} (boilerplate)`)
      else gate(GATE.avoidText, `${name} in the ${section === 'body' ? 'description' : section}`)
    }

    if (profile.seniority !== 'any') {
      const level = levelOf(job.seniority) ?? levelOf(job.title)
      const zone = level === null && role.occupation !== null ? this.jobZone(role.occupation) : null
      if (zone !== null) {
        // A title that says no level still names work that takes little preparation (job zone 1-2) or years of
        // it (5): decisive only for a person far from it, and then gated as a level two steps away is.
        const wanted = SENIORITIES.indexOf(profile.seniority)
        const {name} = this.matching.knowledge.occupations.occupation(role.occupation!)
        if ((zone <= 2 && wanted >= SENIORITIES.indexOf('senior')) || (zone === 5 && profile.seniority === 'junior'))
          gate(GATE.level, `${name}, job zone ${zone} of 5, wanted ${profile.seniority}`)
      } else if (level !== null) {
        const distance = Math.abs(SENIORITIES.indexOf(level) - SENIORITIES.indexOf(profile.seniority))
        if (distance >= 2) gate(GATE.level, `${level}, wanted ${profile.seniority}`)
        else if (distance === 0) adjustBy(ADJUST.level, `${level}, as wanted`, `level: ${level}`)
        else if (explain) adjustments.push(`${level}, one step from ${profile.seniority}: +0`)
      }
    }

    const floor = this.matching.options.minSalary
    if (floor && job.salary) {
      const against = judgeSalary(job.salary, floor, this.matching.options.fx ?? {})
      if (against === 'below') gate(GATE.pay, `${formatSalary(job.salary)}, below your floor`)
      else if (against === 'above') reasons.push(`salary: ${formatSalary(job.salary)}, above your floor`)
    }

    const posted = postedAt(job, this.dates)
    if (posted !== null && Number.isFinite(newest)) {
      const days = (newest - posted) / 86_400_000
      if (days <= RECENT_DAYS) adjustBy(ADJUST.recent, `posted within ${RECENT_DAYS} days of the newest job`)
      else if (days > STALE_DAYS) adjustBy(ADJUST.stale, `posted ${Math.floor(days)} days before the newest job`)
    }

    const rank = relevance * (1 + change) * factor * (1 + adjust)
    const score = Math.round(100 * Math.min(1, rank))
    if (explain) {
      parts.push({part: 'gates', value: factor, detail: gates.length > 0 ? gates : ['none: x1']})
      parts.push({part: 'adjustments', value: adjust, detail: adjustments.length > 0 ? adjustments : ['none: +0']})
    }
    return {score, rank, reasons, parts}
  }

  private skills(
    hits: Hits,
    rarity: (index: number) => number,
    explain: boolean,
  ): {value: number; reasons: string[]; detail: string[]} {
    const {scanner} = this
    if (scanner.skills.length === 0) return {value: 0, reasons: [], detail: []}
    const byPlace = new Map<string, string[]>()
    const detail: string[] = []
    let earned = 0
    for (const index of scanner.skills) {
      const term = scanner.terms[index]!
      const section = hits.get(index)
      const weight = section === undefined ? 0 : SECTION_WEIGHT[section]
      const rare = rarity(index)
      earned += term.weight * weight * rare
      if (weight > 0) {
        const where = section === 'body' ? 'description' : section!
        byPlace.set(where, [...(byPlace.get(where) ?? []), term.name])
      }
      if (explain) {
        detail.push(
          weight > 0
            ? `${term.name} (weight ${term.weight}): ${section === 'body' ? 'description' : section} ${weight} x rarity ${fixed(rare)}`
            : section === 'nothing'
              ? `${term.name} (weight ${term.weight}): only in boilerplate or a keyword list, 0`
              : `${term.name} (weight ${term.weight}): not found, 0`,
        )
      }
    }
    const value = Math.min(1, earned / (SKILLS_FULL * scanner.skillWeight))
    if (explain) {
      detail.push(
        `sum of weight x place x rarity ${fixed(earned)} / (0.6 x ${scanner.skillWeight}) = ${fixed(value)}, at most 1`,
      )
    }
    const reasons = ['title', 'tags', 'requirements', 'duties', 'description']
      .filter((where) => byPlace.has(where))
      .map((where) => `+ ${byPlace.get(where)!.join(', ')} (${where})`)
    return {value, reasons, detail}
  }
}

const fixed = (value: number) => value.toFixed(2)
/**
 * A verdict's reason: the judged job nearest, what the job shares with it alone, and what it changes of relevance
 * (`like a job you liked: Senior Backend Engineer at Acme (golang, backend) +0.21`).
 */
function verdictReason(verdict: 'liked' | 'dismissed', {title, company, terms, change}: VerdictNeighbour): string {
  const job = company === '' ? title : `${title} at ${company}`
  const shared = terms.length > 0 ? ` (${terms.join(', ')})` : ''
  return `like a job you ${verdict}: ${job}${shared} ${signed(change)}`
}

const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(2)}`

/** A posting date's instant; jobs listed together share a few hundred dates, each read once. */
function postedAt(job: JobResponse, known: Map<string, number | null>): number | null {
  const date = job.posted_date
  if (!date) return null
  let instant = known.get(date)
  if (instant === undefined) {
    const fields = parseDateTime(date)
    instant = fields === undefined ? null : utcInstant(fields)
    known.set(date, instant)
  }
  return instant
}

/** Where a job is against where the person lives and what they accept. */
interface PlaceJudgement {
  /** `home`: remote only for places the person does not live in; `onSite`: on site somewhere not accepted. */
  gate: 'home' | 'onSite' | null
  /** Whether the job is in a place the person named (remote, when they want remote). */
  preferred: boolean
  /** The job's place as the reason says it, or '' when there is nothing to say. */
  text: string
}

/** The profile's home and places, worked out once; jobs of one board share a handful of location texts. */
class PlaceRules {
  private readonly home: string | null
  private readonly wantsRemote: boolean
  /** The accepted places besides remote, as known places; EVERYWHERE when any place is accepted. */
  private readonly accepted: string[]
  private readonly known = new Map<string, string[]>()
  /** Whether the profile says anything of places: without a home or locations a job's place is not a reason. */
  readonly named: boolean

  constructor(
    profile: Profile,
    private readonly world: Places,
  ) {
    const home = profile.home === null ? '' : normaliseTerm(profile.home)
    this.home = home === '' ? null : world.knownPlace(home)
    const wanted = profile.locations.map(normaliseTerm).filter((place) => place !== '')
    this.wantsRemote = wanted.includes('remote')
    this.accepted = wanted.filter((place) => place !== 'remote').map((place) => world.knownPlace(place))
    this.named = this.home !== null || wanted.length > 0
  }

  private placesOf(text: string, inTitle = false): string[] {
    const key = inTitle ? `title:${text}` : text
    let found = this.known.get(key)
    if (!found) {
      found = this.world.placesIn(text, {inTitle})
      this.known.set(key, found)
    }
    return found
  }

  /** `eligible`: the places the description restricts applicants to, which say more than the board's fields. */
  judge(job: JobResponse, eligible: readonly string[] = []): PlaceJudgement {
    const named = job.regions.length > 0 ? job.regions.join(', ') : job.location
    // A board without a remote field may still say so in the location (`Remote, Italy`).
    const remote = job.remote ?? (/\bremote\b/i.test(job.location) ? true : null)
    const fromStatement = remote === true && eligible.length > 0
    // A title may name the place too (`Senior Engineer (Europe)`, `Account Executive - Italy`).
    const inNamed = this.placesOf(named)
    const inTitle = this.placesOf(job.title, true)
    const theirs = fromStatement ? [...eligible] : [...new Set([...inNamed, ...inTitle])]
    // The places as the reasons name them: the board's words, or those of the statement or the title that said them.
    const where = fromStatement
      ? eligible.join(', ')
      : inNamed.length === 0 && inTitle.length > 0
        ? inTitle.join(', ')
        : named
    // Silence is not a veto: a job that names no place, or every place, is open to anyone.
    const open = theirs.length === 0 || theirs.includes(EVERYWHERE)
    if (remote === true) {
      const text = open ? 'remote' : `remote (${where})`
      // Remote for named places only: open to the person when one of them holds where they live. Without a home,
      // the places they accept stand for it. A description that binds the job to a city ("must live within
      // commuting distance of our NYC hub") asks for that city, which a home country does not say.
      const homes = this.home !== null ? [this.home] : this.accepted
      const {isCity, overlaps} = this.world
      const fits = (place: string, home: string) =>
        fromStatement && isCity(place) && !isCity(home)
          ? this.accepted.some((accepted) => isCity(accepted) && overlaps(place, accepted))
          : overlaps(place, home)
      const eligible = open || homes.length === 0 || homes.some((home) => theirs.some((place) => fits(place, home)))
      if (!eligible) {
        const home = this.home ?? this.accepted.join(', ')
        return {gate: 'home', preferred: false, text: `remote for ${where} only, not open to ${home}`}
      }
      const preferred = this.wantsRemote || (!open && this.accepts(theirs))
      return {gate: null, preferred, text}
    }
    if (open) return {gate: null, preferred: false, text: ''}
    // On site (or not said to be remote) somewhere named: it must be a country, state or city the person accepts,
    // or, when they name none, where they live. A region or "anywhere" says where remote work may come from, not
    // where they would go to work every day: a person in India open to remote work from anywhere does not take an
    // office job in Oakland.
    const local = this.accepted.filter((place) => !this.world.isRegion(place))
    const acceptable = local.length > 0 ? local : this.home !== null ? [this.home] : []
    if (acceptable.length === 0 && !this.wantsRemote) return {gate: null, preferred: false, text: where}
    if (this.accepts(theirs, acceptable)) return {gate: null, preferred: this.accepted.length > 0, text: where}
    return {gate: 'onSite', preferred: false, text: `on site in ${where}, not a place you accept`}
  }

  private accepts(theirs: readonly string[], acceptable: readonly string[] = this.accepted): boolean {
    return theirs.some((place) => acceptable.some((want) => this.world.overlaps(place, want)))
  }
}

/** Scores jobs listed together against one profile (their rarity and recency are read among them). */
export function scoreJobs(
  jobs: readonly JobResponse[],
  profile: Profile,
  options: ScoreOptions & {knowledge: Knowledge; verdictModel?: VerdictModel | null; explain?: boolean},
): ScoredJob[] {
  const {verdictModel = null, explain = false, knowledge, ...scoreOptions} = options
  const scorer = new Scorer({profile, options: scoreOptions, knowledge}, verdictModel)
  return scorer.scoreAll(
    jobs.map((job) => scorer.analyse(job, scorer.analyseText(job.description))),
    () => explain,
  )
}

/** What a description says for a profile, analysed now or kept from an earlier analysis (docs/MATCHING.md, "Speed"). */
export interface DescriptionAnalyser {
  /**
   * What the terms depend on: the analysis rules' version and the profile's terms, in order. Terms kept under
   * one key are valid for every description of the same text analysed under the same key.
   */
  readonly key: string
  analyse(description: string): DescriptionTerms
  /** Terms as text to keep, and back; null for text that is not such terms (kept by another version, say). */
  encode(terms: DescriptionTerms): string
  decode(text: string): DescriptionTerms | null
}

/**
 * Raised whenever the rules that analyse a description change (places, parts, terms), so kept terms are not used;
 * test/core/cache-versions.test.ts fails when the terms of the relevance set change and this does not.
 */
export const ANALYSIS_VERSION = 3

/**
 * Analyses descriptions for `matching`'s profile as scoring does: a run analyses each one as its board answers and
 * keeps the terms instead of the text. The terms are the profile's, in its order, so any scorer of the same profile
 * finds them alike.
 */
export function descriptionAnalyser(matching: Matching): DescriptionAnalyser {
  const scanner = new TermScanner(matching.profile, matching.knowledge.places, matching.knowledge.skills)
  // The places the terms name come from the knowledge files: other files, other terms.
  const key = JSON.stringify([
    ANALYSIS_VERSION,
    matching.knowledge.version,
    scanner.terms.map((term) => [term.kind, term.name]),
  ])
  return {
    key,
    analyse: (description) => analyseDescription(scanner, description),
    encode: ({terms, eligible}) =>
      JSON.stringify([[...terms].map(([index, section]) => [index, sectionRank(section)]), eligible]),
    decode: (text) => decodeTerms(text, scanner.terms.length),
  }
}

/** Kept terms back as DescriptionTerms; null when the text is not such terms for this many of the profile's terms. */
function decodeTerms(text: string, termCount: number): DescriptionTerms | null {
  try {
    const [pairs, eligible] = JSON.parse(text) as [unknown, unknown]
    if (!Array.isArray(pairs) || !Array.isArray(eligible)) return null
    const terms = new Map<number, Section>()
    for (const pair of pairs) {
      const [index, rank] = pair as [unknown, unknown]
      const section = typeof rank === 'number' ? SECTIONS[rank] : undefined
      if (typeof index !== 'number' || index < 0 || index >= termCount || section === undefined) return null
      terms.set(index, section)
    }
    if (!eligible.every((place) => typeof place === 'string')) return null
    return {terms: terms.size > 0 ? terms : NO_HITS, eligible: eligible as string[]}
  } catch {
    return null
  }
}

function analyseDescription(scanner: TermScanner, description: string): DescriptionTerms {
  // Read in lower case once: the patterns then need no case-insensitive matching.
  return scanner.scanDescription(description, description.toLowerCase())
}

/** A copy of `job` with its score and reasons. */
function withScore<J extends JobResponse, S extends number | null>(job: J, score: S, reasons: string[]) {
  return {...job, score, reasons}
}

interface RankOptions<J> {
  minScore?: number
  /**
   * The terms of a job's description when it is not at hand (a stored job: the terms kept for it, or `analyse` of
   * its text loaded again); each job's own description is analysed without it.
   */
  termsOf?: (job: J, analyse: (text: string | null) => DescriptionTerms) => DescriptionTerms
  verdictModel?: VerdictModel | null
  /** The job whose every part is wanted (`jobs <id> --explain`), scored among the others. */
  explain?: (job: J) => boolean
  /** The jobs to return, each scored among all of `jobs`; every one without it. */
  only?: (job: J) => boolean
  /** The jobs a skill's rarity and the newest posting are read among; all of `jobs` without it. */
  among?: (job: J) => boolean
}

/** How many jobs past its limit rankRead holds before it drops the worst: a sort every so many jobs, not every one. */
const TRIM_AFTER = 500

/**
 * rankJobs (without verdicts) of jobs read from storage rather than held: `read` is called twice, the first read
 * gathering what scoring reads of the set (each skill's rarity, the newest posting), the second scoring each job.
 * Of the jobs scored at least `minScore` (all counted), the best `limit` are kept, one per `keyOf` (the best scored
 * of those sharing a key, the first read of equals): a sweep's candidates, of every board, are never all in memory.
 */
export async function rankRead<J extends JobResponse>(
  read: () => AsyncIterable<J>,
  matching: Matching,
  {minScore, limit, keyOf}: {minScore: number; limit: number; keyOf: (job: J) => string},
): Promise<{ranked: (J & {score: number; reasons: string[]})[]; scoredAtLeast: number}> {
  const scorer = new Scorer(matching, null)
  const analysed = (job: J) => scorer.analyse(job, scorer.analyseText(job.description))
  const set = scorer.listedSet()
  for await (const job of read()) set.add(analysed(job))
  type Kept = {result: J & {score: number; reasons: string[]}; rank: number; order: number}
  // Best first; of equal rank, the one read first, as rankJobs keeps the order given.
  const best = (a: Kept, b: Kept) => b.rank - a.rank || a.order - b.order
  let kept = new Map<string, Kept>()
  let scoredAtLeast = 0
  for await (const job of read()) {
    const {score, rank, reasons} = scorer.scoreIn(set, analysed(job))
    if (score < minScore) continue
    const one = {result: withScore(job, score, reasons), rank, order: scoredAtLeast++}
    const key = keyOf(job)
    const before = kept.get(key)
    if (before && best(before, one) <= 0) continue
    kept.set(key, one)
    // A key dropped here is behind `limit` better ones, which stay or give way to better: it cannot come back in.
    if (kept.size >= limit + TRIM_AFTER) kept = new Map([...kept].sort(([, a], [, b]) => best(a, b)).slice(0, limit))
  }
  const ranked = [...kept.values()].sort(best).slice(0, limit)
  return {ranked: ranked.map(({result}) => result), scoredAtLeast}
}

/**
 * `jobs` with their score and reasons, highest score first, those below `minScore` left out; jobs of equal score
 * keep their order (the listings pass newest first). Without matching (no profile) every job has score null and
 * the order and the jobs are kept.
 */
export function rankJobs<J extends JobResponse>(
  jobs: readonly J[],
  matching: Matching | null,
  options: RankOptions<J> = {},
): (J & {score: number | null; reasons: string[]; parts?: ScorePart[]})[] {
  if (!matching) return jobs.map((job) => withScore(job, null, []))
  const {minScore = 0, termsOf, verdictModel = null, explain, only, among} = options
  const scorer = new Scorer(matching, verdictModel)
  const {analyseText} = scorer
  const analysed = jobs.map((job) =>
    scorer.analyse(job, termsOf ? termsOf(job, analyseText) : analyseText(job.description)),
  )
  const explained = explain ? jobs.findIndex(explain) : -1
  const scored = scorer.scoreAll(
    analysed,
    (index) => index === explained,
    among ? (index) => among(jobs[index]!) : undefined,
  )
  return jobs
    .map((job, index) => ({job, index}))
    .filter(({job}) => !only || only(job))
    .map(({job, index}) => {
      const {score, rank, reasons, parts} = scored[index]!
      const result = withScore(job, score, reasons) as J & {score: number; reasons: string[]; parts?: ScorePart[]}
      if (index === explained) result.parts = parts
      return {result, rank}
    })
    .filter(({result}) => result.score >= minScore)
    .sort((a, b) => b.rank - a.rank)
    .map(({result}) => result)
}
