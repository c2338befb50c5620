import {readFileSync} from 'node:fs'
import {join, resolve} from 'node:path'
import type {JobResponse} from '../../src/core/jobs/job.js'
import type {Profile} from '../../src/core/matching/profile.js'
import type {JudgedJob} from '../../src/core/matching/verdicts.js'

/** The labelled evaluation set: the captured jobs, the profiles, and a grade per profile per job url. */
export const RELEVANCE_FIXTURES = resolve(import.meta.dirname, '../fixtures/relevance')

/** A grade: 0 not relevant, 1 partly, 2 strong match. */
export type Grade = 0 | 1 | 2

/** Grades of one profile, keyed by job url. */
export type Grades = Readonly<Record<string, number>>

export function relevanceFixture<T>(name: string): T {
  return JSON.parse(readFileSync(join(RELEVANCE_FIXTURES, name), 'utf8')) as T
}

export function relevanceJobs(): JobResponse[] {
  return relevanceFixture<JobResponse[]>('jobs.json')
}

/**
 * NDCG@k of a ranking (job urls, best first) against graded labels: gain 2^grade - 1, discount log2(position + 1),
 * the ideal being the labels' own grades sorted best first. A url without a grade is an error rather than a zero,
 * so that a label set which misses jobs cannot pass unnoticed.
 */
export function ndcgAt(k: number, ranking: readonly string[], labels: Grades): number {
  const gradeOf = (url: string): number => {
    const grade = labels[url]
    if (grade === undefined) throw new Error(`no label for ${url}`)
    return grade
  }
  const ideal = dcg(
    Object.values(labels)
      .sort((a, b) => b - a)
      .slice(0, k),
  )
  if (ideal === 0) throw new Error('NDCG is undefined when no job is relevant')
  return dcg(ranking.slice(0, k).map(gradeOf)) / ideal
}

function dcg(grades: readonly number[]): number {
  return grades.reduce((sum, grade, index) => sum + (2 ** grade - 1) / Math.log2(index + 2), 0)
}

/**
 * Lower-case tokens: runs of letters and digits, keeping `.`, `+` and `#` inside a token (`node.js`, `asp.net`) and
 * `+`/`#` at its end (`c++`, `c#`); a sentence's full stop does not stick to the word before it.
 */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:[.+#]+[\p{L}\p{N}]+)*[+#]*/gu) ?? []
}

export interface Bm25Options {
  k1?: number
  b?: number
}

/**
 * Okapi BM25 scores of each job (same order as `jobs`) for the query terms, over title + description, with the
 * document frequencies of these jobs. A multi-word term counts as its words; each query token is counted once.
 * IDF is the non-negative form ln(1 + (N - n + 0.5) / (n + 0.5)).
 */
export function bm25Scores(
  jobs: readonly Pick<JobResponse, 'title' | 'description'>[],
  terms: readonly string[],
  {k1 = 1.2, b = 0.75}: Bm25Options = {},
): number[] {
  const query = [...new Set(terms.flatMap(tokenize))]
  const documents = jobs.map((job) => {
    const tokens = tokenize(`${job.title}\n${job.description ?? ''}`)
    const counts = new Map<string, number>()
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1)
    return {length: tokens.length, counts}
  })
  const count = documents.length
  const averageLength = documents.reduce((sum, document) => sum + document.length, 0) / Math.max(count, 1)
  const idf = new Map(
    query.map((token) => {
      const containing = documents.filter((document) => document.counts.has(token)).length
      return [token, Math.log(1 + (count - containing + 0.5) / (containing + 0.5))]
    }),
  )
  return documents.map(({length, counts}) =>
    query.reduce((score, token) => {
      const frequency = counts.get(token) ?? 0
      if (frequency === 0) return score
      const norm = k1 * (1 - b + (b * length) / averageLength)
      return score + (idf.get(token) ?? 0) * ((frequency * (k1 + 1)) / (frequency + norm))
    }, 0),
  )
}

/** The jobs ordered by BM25 score for the query terms, best first; equal scores keep their input order. */
export function bm25Rank<T extends Pick<JobResponse, 'title' | 'description'>>(
  jobs: readonly T[],
  terms: readonly string[],
  options: Bm25Options = {},
): T[] {
  return rankByScore(jobs, bm25Scores(jobs, terms, options))
}

/** `items` ordered by `scores` (same order as `items`) descending; equal scores keep their input order. */
export function rankByScore<T>(items: readonly T[], scores: readonly number[]): T[] {
  if (scores.length !== items.length) throw new Error(`${scores.length} scores for ${items.length} items`)
  return items
    .map((item, index) => ({item, index, score: scores[index] ?? 0}))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({item}) => item)
}

/** NDCG@k of jobagent's ranking and of the two BM25 baselines, for one profile of the evaluation set. */
export interface RelevanceFigure {
  profile: string
  /** `design`: the profiles the scorer was shaped on; `held-out`: the ones looked at only at the end. */
  half: Half
  jobagent: number
  /** BM25 over title + description with the skills as the query. */
  bm25Skills: number
  /** BM25 with the roles and the skills as the query. */
  bm25RolesSkills: number
}

export type Half = 'design' | 'held-out'

/** Which half each profile is in (halves.json). */
export function profileHalves(): Record<string, Half> {
  const halves = relevanceFixture<Record<Half, string[]>>('halves.json')
  return Object.fromEntries(
    (Object.entries(halves) as [Half, string[]][]).flatMap(([half, names]) => names.map((name) => [name, half])),
  )
}

type Scorer = (jobs: readonly JobResponse[], profile: Profile) => readonly {score: number; rank?: number}[]

/** The order a scorer gives: by the unrounded rank where it has one, else the score; ties keep the input order. */
function rankedUrls(jobs: readonly JobResponse[], scored: readonly {score: number; rank?: number}[]): string[] {
  return rankByScore(
    jobs.map((job) => job.url),
    scored.map((result) => result.rank ?? result.score),
  )
}

/**
 * The comparison the evaluation set is for: every profile's jobs ranked by `score` (jobagent's scorer, passed in
 * so the test and the benchmark share this one computation) and by the two BM25 baselines, each as NDCG@k.
 */
export function relevanceFigures(score: Scorer, k = 10): RelevanceFigure[] {
  const jobs = relevanceJobs()
  const profiles = relevanceFixture<Record<string, Profile>>('profiles.json')
  const labels = relevanceFixture<Record<string, Grades>>('labels.json')
  const halves = profileHalves()
  return Object.entries(profiles).map(([name, profile]) => {
    const grades = labels[name]
    if (!grades) throw new Error(`no labels for profile ${name}`)
    const half = halves[name]
    if (!half) throw new Error(`profile ${name} is in neither half of halves.json`)
    const skills = Object.keys(profile.skills)
    const bm25 = (terms: string[]) =>
      ndcgAt(
        k,
        bm25Rank(jobs, terms).map((job) => job.url),
        grades,
      )
    return {
      profile: name,
      half,
      jobagent: ndcgAt(k, rankedUrls(jobs, score(jobs, profile)), grades),
      bm25Skills: bm25(skills),
      bm25RolesSkills: bm25([...profile.roles, ...skills]),
    }
  })
}

/** NDCG@k over the jobs not judged, before and after a user's verdicts, for one profile. */
export interface VerdictFigure {
  profile: string
  half: Half
  before: number
  after: number
  liked: string[]
  dismissed: string[]
}

/**
 * Verdicts as a user gives it: from the top 10 of jobagent's ranking, like the 2 highest graded (2 before 1) and
 * dismiss the 3 highest ranked graded 0; then rank again with the verdicts and compare NDCG@k over the jobs not
 * judged. `score` takes the verdicts (none for the ranking before). A profile with no relevant job left unjudged is
 * left out.
 */
export function verdictFigures(
  score: (
    jobs: readonly JobResponse[],
    profile: Profile,
    judged: readonly JudgedJob[],
  ) => readonly {score: number; rank?: number}[],
  k = 10,
): VerdictFigure[] {
  const jobs = relevanceJobs()
  const profiles = relevanceFixture<Record<string, Profile>>('profiles.json')
  const labels = relevanceFixture<Record<string, Grades>>('labels.json')
  const halves = profileHalves()
  const byUrl = new Map(jobs.map((job) => [job.url, job]))
  return Object.entries(profiles)
    .map(([name, profile]): VerdictFigure | null => {
      const grades = labels[name]!
      const first = rankedUrls(jobs, score(jobs, profile, []))
      const top = first.slice(0, 10)
      const liked = top
        .filter((url) => (grades[url] ?? 0) > 0)
        .sort((a, b) => (grades[b] ?? 0) - (grades[a] ?? 0))
        .slice(0, 2)
      const dismissed = top.filter((url) => grades[url] === 0).slice(0, 3)
      const judged = new Set([...liked, ...dismissed])
      const verdicts: JudgedJob[] = [...judged].map((url) => {
        const job = byUrl.get(url)!
        return {
          verdict: liked.includes(url) ? 'like' : 'dismiss',
          title: job.title,
          tags: job.tags,
          company: job.company,
        }
      })
      const rest = Object.fromEntries(Object.entries(grades).filter(([url]) => !judged.has(url)))
      const unjudged = (urls: string[]) => urls.filter((url) => !judged.has(url))
      // A profile whose every relevant job was liked has nothing left to find: NDCG is undefined, so it is left out.
      if (!Object.values(rest).some((grade) => grade > 0)) return null
      const after = rankedUrls(jobs, score(jobs, profile, verdicts))
      return {
        profile: name,
        half: halves[name]!,
        before: ndcgAt(k, unjudged(first), rest),
        after: ndcgAt(k, unjudged(after), rest),
        liked,
        dismissed,
      }
    })
    .filter((figure) => figure !== null)
}
