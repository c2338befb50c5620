import {familyName, roleWords, titleFamilies} from './role-match.js'

/** A person's verdict on a job: they like it (or tracked it), or dismiss it. */
export type Verdict = 'like' | 'dismiss'

/** What feedback learns from: the verdict and the job's title, tags and employer as they were when it was given. */
export interface JudgedJob {
  verdict: Verdict
  title: string
  tags: readonly string[]
  company?: string
}

/** What feedback reads of any job, judged or listed. */
export interface FeedbackJob {
  title: string
  tags: readonly string[]
  company?: string
}

/** How far feedback moves a job's relevance, up or down: 30% at most (docs/MATCHING.md, "Feedback"). */
const FEEDBACK_BOUND = 0.3
/**
 * What a dismissal's likeness counts for against a like's: a like says "more like this", a dismissal only "not this",
 * maybe for one thing about the job, so its neighbours fall half as far as a liked job's neighbours rise.
 */
const DISMISSAL_SHARE = 0.5

/** Words of a title that say nothing of the work, left out of feedback's terms. */
const PLAIN_WORDS = new Set([
  'senior',
  'sr',
  'junior',
  'jr',
  'mid',
  'staff',
  'principal',
  'lead',
  'remote',
  'hybrid',
  'the',
  'and',
  'of',
  'for',
  'to',
  'in',
  'a',
  'an',
  'with',
  'at',
  'on',
  'm',
  'w',
  'd',
  'f',
  'x',
  'all',
  'genders',
  'i',
  'ii',
  'iii',
])
/** A board's tag list longer than this is a keyword list, not a description of the job (as in scoring). */
const MAX_TAGS = 10
/** What each kind of term weighs in a job's likeness to another, before its rarity among the jobs listed. */
const WEIGHT = {role: 2, word: 1, company: 1, tag: 0.5} as const

/**
 * The kinds of work a title names, as feedback's terms (`role:<kind>`) with the name reasons give them. Feedback
 * reads a title's occupation only through here.
 */
function roleTerms(title: string): [term: string, name: string][] {
  return titleFamilies(title).map((family) => [`role:${family}`, familyName(family)])
}

/** A job's terms and their names in reasons (a role term's name is its kind of work, any other is itself). */
interface Terms {
  weights: Map<string, number>
  names: Map<string, string>
}

/** The terms of a job feedback compares, with their weights: its kinds of work, title words, employer and tags. */
function feedbackTerms(job: FeedbackJob): Terms {
  const weights = new Map<string, number>()
  const names = new Map<string, string>()
  for (const [term, name] of roleTerms(job.title)) {
    weights.set(term, WEIGHT.role)
    names.set(term, name)
  }
  for (const word of roleWords(job.title)) {
    if (word.length > 1 && !PLAIN_WORDS.has(word) && !/^\d+$/.test(word)) weights.set(word, WEIGHT.word)
  }
  const company = job.company?.trim().toLowerCase()
  if (company) {
    weights.set(`company:${company}`, WEIGHT.company)
    names.set(`company:${company}`, job.company!.trim())
  }
  if (job.tags.length <= MAX_TAGS) {
    for (const tag of job.tags) {
      const term = tag.trim().toLowerCase()
      if (term !== '' && !PLAIN_WORDS.has(term) && !weights.has(term)) weights.set(term, WEIGHT.tag)
    }
  }
  return {weights, names}
}

export interface FeedbackJudgement {
  /** The factor's change to relevance, from -FEEDBACK_BOUND to +FEEDBACK_BOUND. */
  change: number
  /** The terms the job shares with the liked jobs most like it, strongest first (at most three), and dismissed. */
  liked: string[]
  dismissed: string[]
}

const NONE: FeedbackJudgement = {change: 0, liked: [], dismissed: []}
const NO_TERMS: ReadonlySet<string> = new Set()

/** The feedback terms a profile asks for: its roles' kinds of work and words, and its skills. */
export function wantedTerms(profile: {
  roles: readonly string[]
  skills: Readonly<Record<string, number>>
}): Set<string> {
  const wanted = new Set<string>()
  for (const role of profile.roles) {
    for (const [term] of roleTerms(role)) wanted.add(term)
    for (const word of roleWords(role)) wanted.add(word)
  }
  for (const skill of Object.keys(profile.skills)) wanted.add(skill.trim().toLowerCase())
  return wanted
}

/** A judged job as a vector: its terms weighted by their rarity, and its length. */
interface Judged {
  verdict: Verdict
  vector: Map<string, number>
  norm: number
}

/**
 * What the verdicts teach: a listed job rises by its likeness to the liked job nearest it and falls by half its
 * likeness to the nearest dismissed one. Likeness is the cosine of the two jobs' terms (kinds of work, title words,
 * employer, tags; not the profile's own roles and skills), each weighted by how rare it is among the jobs listed
 * together, so that a word every listed job has ("engineer") says little and a distinctive one ("golang", the same
 * employer) much. A job the same as one liked rises by the whole bound; none moves further, whatever the number of
 * verdicts.
 */
export class FeedbackModel {
  readonly likes: number
  readonly dismissals: number
  private readonly judged: readonly JudgedJob[]

  constructor(judged: readonly JudgedJob[]) {
    this.judged = judged
    this.likes = judged.filter((job) => job.verdict === 'like').length
    this.dismissals = judged.length - this.likes
  }

  get empty(): boolean {
    return this.likes + this.dismissals === 0
  }

  /**
   * A judge for jobs listed together, which reads how rare each term is among them. `wanted` are the terms the
   * profile asks for (its roles and skills, wantedTerms): they count in relevance already, so they make no two jobs
   * alike, and dismissing one machine-learning job about ads does not sink every machine-learning job.
   */
  among(jobs: readonly FeedbackJob[], wanted: ReadonlySet<string> = NO_TERMS): FeedbackJudge {
    return new FeedbackJudge(this.judged, jobs, wanted)
  }

  /** The change feedback makes to one job's relevance, its terms' rarity read among it alone. */
  judge(job: FeedbackJob, wanted: ReadonlySet<string> = NO_TERMS): FeedbackJudgement {
    return this.among([job], wanted).judge(job)
  }
}

/** Feedback for the jobs listed together (FeedbackModel.among). */
export class FeedbackJudge {
  private readonly rarity = new Map<string, number>()
  private readonly judged: Judged[] = []
  private readonly known = new Map<FeedbackJob, Terms>()
  private readonly listed: number

  constructor(
    judged: readonly JudgedJob[],
    jobs: readonly FeedbackJob[],
    private readonly wanted: ReadonlySet<string>,
  ) {
    const naming = new Map<string, number>()
    for (const job of jobs) {
      for (const term of this.termsOf(job).weights.keys()) naming.set(term, (naming.get(term) ?? 0) + 1)
    }
    this.listed = jobs.length
    for (const [term, count] of naming) this.rarity.set(term, this.idf(count))
    for (const job of judged) {
      const terms = feedbackTerms(job)
      const vector = this.vector(terms)
      if (vector.norm > 0) this.judged.push({verdict: job.verdict, ...vector})
    }
  }

  /** Inverse document frequency: 1 for a term every listed job has, more for a rarer one. */
  private idf(count: number): number {
    return 1 + Math.log((1 + this.listed) / (1 + count))
  }

  private termsOf(job: FeedbackJob): Terms {
    let terms = this.known.get(job)
    if (!terms) {
      terms = feedbackTerms(job)
      this.known.set(job, terms)
    }
    return terms
  }

  private vector(terms: Terms): {vector: Map<string, number>; norm: number} {
    const vector = new Map<string, number>()
    let squares = 0
    for (const [term, weight] of terms.weights) {
      if (this.wanted.has(term)) continue
      const value = weight * (this.rarity.get(term) ?? this.idf(0))
      vector.set(term, value)
      squares += value * value
    }
    return {vector, norm: Math.sqrt(squares)}
  }

  /** The change feedback makes to a job's relevance, and the terms that made it. */
  judge(job: FeedbackJob): FeedbackJudgement {
    if (this.judged.length === 0) return NONE
    const terms = this.termsOf(job)
    const {vector, norm} = this.vector(terms)
    if (norm === 0) return NONE
    const nearest: Record<Verdict, {likeness: number; with: Judged | null}> = {
      like: {likeness: 0, with: null},
      dismiss: {likeness: 0, with: null},
    }
    for (const other of this.judged) {
      let dot = 0
      const [small, large] = vector.size <= other.vector.size ? [vector, other.vector] : [other.vector, vector]
      for (const [term, value] of small) {
        const theirs = large.get(term)
        if (theirs !== undefined) dot += value * theirs
      }
      const likeness = dot / (norm * other.norm)
      const best = nearest[other.verdict]
      if (likeness > best.likeness) {
        best.likeness = likeness
        best.with = other
      }
    }
    const change = FEEDBACK_BOUND * (nearest.like.likeness - DISMISSAL_SHARE * nearest.dismiss.likeness)
    if (Math.abs(change) < 1e-9) return NONE
    // The reasons name what the job shares with the nearest liked job and not the nearest dismissed one, and the
    // other way round, strongest first: a term both share tells the two verdicts apart in nothing.
    const shared = (other: Judged | null, not: Judged | null): string[] =>
      other === null
        ? []
        : [...vector]
            .filter(([term]) => other.vector.has(term) && !not?.vector.has(term))
            .map(([term, value]): [string, number] => [term, value * other.vector.get(term)!])
            .sort((a, b) => b[1] - a[1])
            .slice(0, 3)
            .map(([term]) => terms.names.get(term) ?? term)
    const {like, dismiss} = nearest
    return {change, liked: shared(like.with, dismiss.with), dismissed: shared(dismiss.with, like.with)}
  }
}
