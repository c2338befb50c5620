import {readFileSync} from 'node:fs'
import {join, resolve} from 'node:path'
import type {JobResponse} from '../../src/core/jobs/job.js'
import type {Profile} from '../../src/core/matching/profile.js'

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

/** NDCG@k of jobagent's ranking and of the BM25 baseline, for one profile of the evaluation set. */
export interface RelevanceFigure {
  profile: string
  jobagent: number
  baseline: number
}

/**
 * The comparison the evaluation set is for: every profile's jobs ranked by `score` (jobagent's scorer, passed in
 * so the test and the benchmark share this one computation) and by BM25 over title + description with the skills
 * as the query, each as NDCG@k against the labels.
 */
export function relevanceFigures(
  score: (jobs: readonly JobResponse[], profile: Profile) => readonly {score: number}[],
  k = 10,
): RelevanceFigure[] {
  const jobs = relevanceJobs()
  const profiles = relevanceFixture<Record<string, Profile>>('profiles.json')
  const labels = relevanceFixture<Record<string, Grades>>('labels.json')
  const urls = jobs.map((job) => job.url)
  return Object.entries(profiles).map(([name, profile]) => {
    const grades = labels[name]
    if (!grades) throw new Error(`no labels for profile ${name}`)
    const ranked = rankByScore(
      urls,
      score(jobs, profile).map((result) => result.score),
    )
    const baseline = bm25Rank(jobs, Object.keys(profile.skills)).map((job) => job.url)
    return {profile: name, jobagent: ndcgAt(k, ranked, grades), baseline: ndcgAt(k, baseline, grades)}
  })
}
