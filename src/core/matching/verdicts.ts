import type {OccupationIndex} from './occupations.js'
import {familyName, roleWords, titleFamilies} from './role-match.js'

/** A person's verdict on a job: they like it (or tracked it), or dismiss it. */
export const VERDICTS = ['like', 'dismiss'] as const

export type Verdict = (typeof VERDICTS)[number]

/** What the verdicts teach: the verdict and the job's title, tags and employer as they were when it was given. */
export interface JudgedJob {
  verdict: Verdict
  title: string
  tags: readonly string[]
  company?: string
}

/** What verdicts read of any job, judged or listed. */
interface VerdictJob {
  title: string
  tags: readonly string[]
  company?: string
}

/**
 * How far verdicts move a job's relevance (docs/MATCHING.md, "Verdicts"): up by half at most, for a job the same as
 * one liked, and down by 30% at most, for one the same as a dismissed job. A like says "more like this", a dismissal
 * only "not this", maybe for one thing about the job, so a dismissal's neighbours fall less far than a like's rise.
 * A rise below 1 keeps a job gated by half (or more) below the same job ungated and unjudged: a like does not lift a
 * job over its gates.
 */
const LIKE_BOUND = 0.5
const DISMISS_BOUND = 0.3

/** A board's tag list longer than this is a keyword list, not a description of the job (as in scoring). */
const MAX_TAGS = 10
/** What each kind of term weighs in a job's likeness to another, before its rarity among the jobs listed. */
const WEIGHT = {role: 2, word: 1, company: 0.5, tag: 0.5} as const

/** A kind of work as a term, by its O*NET-SOC code. */
const ROLE = 'role:'

/**
 * The occupations a title names, as the verdicts' terms (`role:<O*NET-SOC code>`). Verdicts read a title's occupation
 * only through here; without the index (a model built for words and tags alone) a title names none.
 */
function roleTerms(title: string, occupations: OccupationIndex | undefined): string[] {
  return occupations ? titleFamilies(title, occupations).map((code) => `${ROLE}${code}`) : []
}

/** The employer as a term; reasons name it as the board writes it. */
const COMPANY = 'company:'

/**
 * The terms of a job the verdicts compare, with their weights: its kinds of work, title words, employer and tags. No
 * list of words is left out: a word every listed job has ("senior", "and") weighs little by its rarity alone.
 */
function verdictTerms(job: VerdictJob, occupations: OccupationIndex | undefined): Map<string, number> {
  const weights = new Map<string, number>()
  for (const term of roleTerms(job.title, occupations)) weights.set(term, WEIGHT.role)
  for (const word of roleWords(job.title)) {
    if (word.length > 1 && !/^\d+$/.test(word)) weights.set(word, WEIGHT.word)
  }
  const company = job.company?.trim().toLowerCase()
  if (company) weights.set(`${COMPANY}${company}`, WEIGHT.company)
  if (job.tags.length <= MAX_TAGS) {
    for (const tag of job.tags) {
      const term = tag.trim().toLowerCase()
      if (term !== '' && !weights.has(term)) weights.set(term, WEIGHT.tag)
    }
  }
  return weights
}

/** A term as reasons name it: a kind of work by its name, the employer as the job writes it, any other as itself. */
function termName(term: string, job: VerdictJob, occupations: OccupationIndex | undefined): string {
  if (term.startsWith(COMPANY)) return job.company?.trim() ?? term.slice(COMPANY.length)
  if (term.startsWith(ROLE) && occupations) return familyName(term.slice(ROLE.length), occupations)
  return term
}

/** The judged job nearest a listed job, as its reason names it. */
export interface VerdictNeighbour {
  title: string
  company: string
  /** The terms the two share and the nearest job of the other verdict does not, strongest first (at most three). */
  terms: string[]
  /** What it changes of the job's relevance: up for a liked job, down for a dismissed one. */
  change: number
}

interface VerdictJudgement {
  /** The factor's change to relevance, from -DISMISS_BOUND to +LIKE_BOUND. */
  change: number
  /** The nearest liked job and the nearest dismissed one that move the job; null when none does. */
  liked: VerdictNeighbour | null
  dismissed: VerdictNeighbour | null
}

const NONE: VerdictJudgement = {change: 0, liked: null, dismissed: null}

/**
 * The terms a profile asks for: its roles' kinds of work and words, and its skills; a dismissal's reason that names
 * only these proposes no `profile.avoid`.
 */
export function wantedTerms(
  profile: {
    roles: readonly string[]
    skills: Readonly<Record<string, number>>
  },
  occupations?: OccupationIndex,
): Set<string> {
  const wanted = new Set<string>()
  for (const role of profile.roles) {
    for (const term of roleTerms(role, occupations)) wanted.add(term)
    for (const word of roleWords(role)) wanted.add(word)
  }
  for (const skill of Object.keys(profile.skills)) wanted.add(skill.trim().toLowerCase())
  return wanted
}

/** A judged job as a vector: its terms weighted by their rarity, and its length. */
interface Judged {
  verdict: Verdict
  title: string
  company: string
  vector: Map<string, number>
  norm: number
}

/**
 * What the verdicts teach: a listed job rises by half its likeness to the liked job nearest it and falls by 30% of its
 * likeness to the nearest dismissed one. Likeness is the cosine of the two jobs' terms (kinds of work, title words,
 * employer, tags), each weighted by how rare it is among the jobs listed together, so that a word every listed job
 * has ("engineer") says little and a distinctive one ("golang", the same employer) much. The profile's own roles
 * and skills count too: a liked job of a wanted occupation says that occupation is right, which relevance alone
 * cannot tell from a neighbour's. A job the same as one liked rises by the whole bound; none moves further, whatever
 * the number of verdicts.
 */
export class VerdictModel {
  readonly likes: number
  readonly dismissals: number
  private readonly judged: readonly JudgedJob[]

  /** `occupations`: the index the jobs' titles are read into occupations with; without it, words and tags only. */
  constructor(
    judged: readonly JudgedJob[],
    private readonly occupations?: OccupationIndex,
  ) {
    this.judged = judged
    this.likes = judged.filter((job) => job.verdict === 'like').length
    this.dismissals = judged.length - this.likes
  }

  get empty(): boolean {
    return this.likes + this.dismissals === 0
  }

  /** A judge for jobs listed together, which reads how rare each term is among them. */
  among(jobs: readonly VerdictJob[]): VerdictJudge {
    return new VerdictJudge(this.judged, jobs, this.occupations)
  }

  /** The change the verdicts make to one job's relevance, its terms' rarity read among it alone. */
  judge(job: VerdictJob): VerdictJudgement {
    return this.among([job]).judge(job)
  }
}

/** Verdicts for the jobs listed together (VerdictModel.among). */
export class VerdictJudge {
  private readonly rarity = new Map<string, number>()
  private readonly judged: Judged[] = []
  /** Each term's judged jobs and its value in each: a job is compared only with the judged jobs it shares a term with. */
  private readonly postings = new Map<string, [index: number, value: number][]>()
  private readonly known = new Map<VerdictJob, Map<string, number>>()
  private readonly listed: number

  constructor(
    judged: readonly JudgedJob[],
    jobs: readonly VerdictJob[],
    private readonly occupations: OccupationIndex | undefined,
  ) {
    const naming = new Map<string, number>()
    for (const job of jobs) {
      for (const term of this.termsOf(job).keys()) naming.set(term, (naming.get(term) ?? 0) + 1)
    }
    this.listed = jobs.length
    for (const [term, count] of naming) this.rarity.set(term, this.idf(count))
    for (const job of judged) {
      const vector = this.vector(verdictTerms(job, this.occupations))
      if (vector.norm === 0) continue
      const company = job.company?.trim() ?? ''
      const index = this.judged.push({verdict: job.verdict, title: job.title, company, ...vector}) - 1
      for (const [term, value] of vector.vector) {
        const postings = this.postings.get(term) ?? []
        postings.push([index, value])
        this.postings.set(term, postings)
      }
    }
  }

  /** Inverse document frequency: 1 for a term every listed job has, more for a rarer one. */
  private idf(count: number): number {
    return 1 + Math.log((1 + this.listed) / (1 + count))
  }

  private termsOf(job: VerdictJob): Map<string, number> {
    let terms = this.known.get(job)
    if (!terms) {
      terms = verdictTerms(job, this.occupations)
      this.known.set(job, terms)
    }
    return terms
  }

  private vector(terms: ReadonlyMap<string, number>): {vector: Map<string, number>; norm: number} {
    const vector = new Map<string, number>()
    let squares = 0
    for (const [term, weight] of terms) {
      const value = weight * (this.rarity.get(term) ?? this.idf(0))
      vector.set(term, value)
      squares += value * value
    }
    return {vector, norm: Math.sqrt(squares)}
  }

  /**
   * The terms a job shares with a judged job and not with `not`, strongest first, at most three, and of the kinds of
   * work only the strongest: a title read as three occupations would otherwise fill the reason with them.
   */
  private distinct(terms: ReadonlyMap<string, number>, other: Judged, not: Judged | null): string[] {
    const shared = [...this.vector(terms).vector]
      .filter(([term]) => other.vector.has(term) && !not?.vector.has(term))
      .map(([term, value]): [string, number] => [term, value * other.vector.get(term)!])
      .sort((a, b) => b[1] - a[1])
      .map(([term]) => term)
    const role = shared.find((term) => term.startsWith(ROLE))
    return shared.filter((term) => !term.startsWith(ROLE) || term === role).slice(0, 3)
  }

  /** The change the verdicts make to a job's relevance, and the judged jobs that made it. */
  judge(job: VerdictJob): VerdictJudgement {
    if (this.judged.length === 0) return NONE
    const terms = this.termsOf(job)
    // The job's vector is not built: each term's value is read once, against the judged jobs that have the term.
    let squares = 0
    const dots = new Array<number>(this.judged.length).fill(0)
    for (const [term, weight] of terms) {
      const value = weight * (this.rarity.get(term) ?? this.idf(0))
      squares += value * value
      const postings = this.postings.get(term)
      if (postings) for (const [index, theirs] of postings) dots[index]! += value * theirs
    }
    if (squares === 0) return NONE
    const norm = Math.sqrt(squares)
    const nearest: Record<Verdict, {likeness: number; with: Judged | null}> = {
      like: {likeness: 0, with: null},
      dismiss: {likeness: 0, with: null},
    }
    for (let index = 0; index < this.judged.length; index++) {
      const other = this.judged[index]!
      const likeness = dots[index]! / (norm * other.norm)
      const best = nearest[other.verdict]
      if (likeness > best.likeness) {
        best.likeness = likeness
        best.with = other
      }
    }
    const rise = LIKE_BOUND * nearest.like.likeness
    const fall = DISMISS_BOUND * nearest.dismiss.likeness
    const change = rise - fall
    if (Math.abs(change) < 1e-9) return NONE
    // The reasons name the nearest liked and dismissed jobs and what the job shares with each and not with the other,
    // strongest first: a term both share tells the two verdicts apart in nothing.
    const neighbour = (other: Judged | null, not: Judged | null, by: number): VerdictNeighbour | null =>
      other === null || Math.abs(by) < 0.005
        ? null
        : {
            title: other.title,
            company: other.company,
            change: by,
            terms: this.distinct(terms, other, not).map((term) => termName(term, job, this.occupations)),
          }
    const {like, dismiss} = nearest
    return {
      change,
      liked: neighbour(like.with, dismiss.with, rise),
      dismissed: neighbour(dismiss.with, like.with, -fall),
    }
  }
}
