import type {OccupationIndex} from './occupations.js'
import {familyName, roleWords, titleFamilies} from './role-match.js'

/** A person's verdict on a job: they like it (or tracked it), or dismiss it. */
export type Verdict = 'like' | 'dismiss'

/** What feedback learns from: the verdict and the job's title and tags as they were when it was given. */
export interface JudgedJob {
  verdict: Verdict
  title: string
  tags: readonly string[]
}

/** How far feedback moves a job's relevance, up or down: 30% at most (docs/MATCHING.md, "Feedback"). */
const FEEDBACK_BOUND = 0.3

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

/** The terms of a job feedback compares, with their weights: its occupations most, then title words, then tags. */
function feedbackTerms(
  job: {title: string; tags: readonly string[]},
  occupations?: OccupationIndex,
): Map<string, number> {
  const terms = new Map<string, number>()
  if (occupations) for (const family of titleFamilies(job.title, occupations)) terms.set(`role:${family}`, 2)
  for (const word of roleWords(job.title)) {
    if (word.length > 1 && !PLAIN_WORDS.has(word) && !/^\d+$/.test(word)) terms.set(word, 1)
  }
  if (job.tags.length <= MAX_TAGS) {
    for (const tag of job.tags) {
      const term = tag.trim().toLowerCase()
      if (term !== '' && !PLAIN_WORDS.has(term) && !terms.has(term)) terms.set(term, 0.5)
    }
  }
  return terms
}

/** A term as reasons name it. */
const termName = (term: string, occupations?: OccupationIndex) =>
  term.startsWith('role:') && occupations ? familyName(term.slice(5), occupations) : term

interface FeedbackJudgement {
  /** The factor's change to relevance, from -FEEDBACK_BOUND to +FEEDBACK_BOUND. */
  change: number
  /** The terms the job shares with liked jobs, strongest first (at most three), and with dismissed ones. */
  liked: string[]
  dismissed: string[]
}

const NONE: FeedbackJudgement = {change: 0, liked: [], dismissed: []}
const NO_TERMS: ReadonlySet<string> = new Set()

/** The feedback terms a profile asks for: its roles' families and words, and its skills. */
export function wantedTerms(
  profile: {
    roles: readonly string[]
    skills: Readonly<Record<string, number>>
  },
  occupations?: OccupationIndex,
): Set<string> {
  const wanted = new Set<string>()
  for (const role of profile.roles) {
    if (occupations) for (const family of titleFamilies(role, occupations)) wanted.add(`role:${family}`)
    for (const word of roleWords(role)) wanted.add(word)
  }
  for (const skill of Object.keys(profile.skills)) wanted.add(skill.trim().toLowerCase())
  return wanted
}

/**
 * What the verdicts teach, Rocchio-style: every term's weight is its share of the liked jobs less its share of the
 * dismissed ones, each side damped by how few verdicts it has (n / (n + 1)); a job's change is the bound times
 * tanh of its terms' weights, summed and divided by the square root of its terms' total weight. A few verdicts
 * reorder jobs like the ones judged; no number of them moves a job more than the bound.
 */
export class FeedbackModel {
  private readonly weights = new Map<string, number>()
  readonly likes: number
  readonly dismissals: number

  /** `occupations`: the index the jobs' titles are read into occupations with; without it, words and tags only. */
  constructor(
    judged: readonly JudgedJob[],
    private readonly occupations?: OccupationIndex,
  ) {
    const liked = judged.filter((job) => job.verdict === 'like')
    const dismissed = judged.filter((job) => job.verdict === 'dismiss')
    this.likes = liked.length
    this.dismissals = dismissed.length
    const add = (jobs: readonly JudgedJob[], sign: number) => {
      if (jobs.length === 0) return
      const damping = jobs.length / (jobs.length + 1)
      for (const job of jobs) {
        for (const [term, weight] of feedbackTerms(job, occupations)) {
          const share = (sign * damping * weight) / jobs.length
          this.weights.set(term, (this.weights.get(term) ?? 0) + share)
        }
      }
    }
    add(liked, 1)
    add(dismissed, -1)
  }

  get empty(): boolean {
    return this.likes + this.dismissals === 0
  }

  /**
   * The change feedback makes to a job's relevance. `wanted` are the terms the profile asks for (its roles and
   * skills): they count already, and a dismissal of one job that has them must not sink every job that does.
   */
  judge(job: {title: string; tags: readonly string[]}, wanted: ReadonlySet<string> = NO_TERMS): FeedbackJudgement {
    if (this.empty) return NONE
    const terms = feedbackTerms(job, this.occupations)
    let sum = 0
    let size = 0
    const shared: [string, number][] = []
    for (const [term, weight] of terms) {
      if (wanted.has(term)) continue
      size += weight
      const learned = this.weights.get(term)
      if (learned === undefined || Math.abs(learned) < 1e-9) continue
      sum += weight * learned
      shared.push([term, weight * learned])
    }
    if (shared.length === 0) return NONE
    const change = FEEDBACK_BOUND * Math.tanh(sum / Math.sqrt(size))
    const strongest = (sign: number) =>
      shared
        .filter(([, value]) => Math.sign(value) === sign)
        .sort((a, b) => sign * (b[1] - a[1]))
        .slice(0, 3)
        .map(([term]) => termName(term, this.occupations))
    return {change, liked: strongest(1), dismissed: strongest(-1)}
  }
}
