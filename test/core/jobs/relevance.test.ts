import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import type {Profile} from '../../../src/core/matching/profile.js'
import {scoreJobs} from '../../../src/core/matching/score.js'
import {
  bm25Rank,
  bm25Scores,
  type Grades,
  ndcgAt,
  RELEVANCE_FIXTURES,
  rankByScore,
  relevanceFigures,
  relevanceFixture,
  relevanceJobs,
  tokenize,
} from '../../helpers/relevance.js'

const K = 10
const jobs = relevanceJobs()
const profiles = relevanceFixture<Record<string, Profile>>('profiles.json')
const labels = relevanceFixture<Record<string, Grades>>('labels.json')
const urls = jobs.map((job) => job.url)

describe('the labelled evaluation set', () => {
  it('holds the captured jobs once each, and profiles with something to find', () => {
    expect(jobs.length).toBeGreaterThanOrEqual(60)
    expect(new Set(urls).size).toBe(jobs.length)
    expect(Object.keys(profiles).length).toBeGreaterThanOrEqual(3)
    for (const grades of Object.values(labels)) expect(Object.values(grades)).toContain(2)
  })

  it('grades every job of jobs.json for every profile, and nothing else, with 0, 1 or 2', () => {
    expect(Object.keys(labels).sort()).toEqual(Object.keys(profiles).sort())
    for (const [name, grades] of Object.entries(labels)) {
      expect(Object.keys(grades).sort(), name).toEqual([...urls].sort())
      for (const [url, grade] of Object.entries(grades)) expect([0, 1, 2], `${name} ${url}`).toContain(grade)
    }
  })

  it('gives each job graded 1 or 2 its reason in NOTES.md, with the same grade', () => {
    const notes = readFileSync(join(RELEVANCE_FIXTURES, 'NOTES.md'), 'utf8')
    const noted = new Map<string, Map<string, number>>()
    let section = ''
    for (const line of notes.split('\n')) {
      const heading = /^## (\S+)$/.exec(line)
      if (heading) section = heading[1]!
      const entry = /^- ([12]) (\S+) \(.+\): \S/.exec(line)
      if (entry && section in labels) {
        const lines = noted.get(section) ?? new Map<string, number>()
        lines.set(entry[2]!, Number(entry[1]))
        noted.set(section, lines)
      }
    }
    for (const [name, grades] of Object.entries(labels)) {
      const relevant = Object.entries(grades).filter(([, grade]) => grade > 0)
      expect(Object.fromEntries(noted.get(name) ?? []), name).toEqual(Object.fromEntries(relevant))
    }
  })
})

describe('the yardsticks', () => {
  const grades = {a: 2, b: 1, c: 0, d: 0}

  it('NDCG is 1 for the ideal order, less for a worse one, 0 when nothing relevant is in the top k', () => {
    expect(ndcgAt(10, ['a', 'b', 'c', 'd'], grades)).toBeCloseTo(1, 10)
    expect(ndcgAt(10, ['b', 'a', 'c', 'd'], grades)).toBeLessThan(1)
    expect(ndcgAt(10, ['d', 'c', 'b', 'a'], grades)).toBeLessThan(ndcgAt(10, ['b', 'a', 'c', 'd'], grades))
    expect(ndcgAt(2, ['c', 'd', 'a', 'b'], grades)).toBe(0)
    // Ideal DCG: 3/log2(2) + 1/log2(3); swapping the two: 1/log2(2) + 3/log2(3).
    expect(ndcgAt(10, ['b', 'a', 'c', 'd'], grades)).toBeCloseTo((1 + 3 / Math.log2(3)) / (3 + 1 / Math.log2(3)), 10)
  })

  it('NDCG refuses a ranked url without a label and a label set with nothing relevant', () => {
    expect(() => ndcgAt(10, ['a', 'z'], grades)).toThrow(/no label for z/)
    expect(() => ndcgAt(10, ['c'], {c: 0})).toThrow(/undefined/)
  })

  it('tokens keep node.js, c++ and c# whole and drop the full stop after a word', () => {
    expect(tokenize('Node.js, C++ and C#. TypeScript/Go; end.')).toEqual([
      'node.js',
      'c++',
      'and',
      'c#',
      'typescript',
      'go',
      'end',
    ])
  })

  it('BM25 ranks a posting with the query terms above one without, and the rarer term higher', () => {
    const docs = [
      {title: 'Office assistant', description: 'Filing and phone calls.'},
      {title: 'Backend engineer', description: 'Go services and Postgres.'},
      {title: 'Backend engineer', description: 'Node.js and TypeScript services.'},
      {title: 'Frontend engineer', description: 'TypeScript and React.'},
    ]
    const [assistant, goBackend, nodeBackend, frontend] = bm25Scores(docs, ['node.js', 'backend'])
    expect(assistant).toBe(0)
    expect(goBackend).toBeGreaterThan(0)
    // node.js is in one posting, backend in two: the rarer term weighs more.
    expect(nodeBackend).toBeGreaterThan(goBackend!)
    expect(frontend).toBe(0)
    expect(bm25Rank(docs, ['node.js', 'backend'])).toEqual([docs[2], docs[1], docs[0], docs[3]])
  })

  it('ties keep the input order', () => {
    expect(rankByScore(['a', 'b', 'c', 'd'], [1, 2, 1, 2])).toEqual(['b', 'd', 'a', 'c'])
  })
})

describe('ranking the captured jobs for each profile', () => {
  it("puts relevant jobs higher than a plain BM25 baseline does: jobagent's mean NDCG@10 is above BM25's", () => {
    const figures = relevanceFigures((scored, profile) => scoreJobs(scored, profile), K)
    for (const {profile, jobagent, baseline} of figures) {
      console.log(`NDCG@${K} ${profile}: jobagent ${jobagent.toFixed(3)}, BM25 ${baseline.toFixed(3)}`)
    }
    const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length
    const jobagent = mean(figures.map((figure) => figure.jobagent))
    const baseline = mean(figures.map((figure) => figure.baseline))
    console.log(`NDCG@${K} mean: jobagent ${jobagent.toFixed(3)}, BM25 ${baseline.toFixed(3)}`)
    expect(jobagent).toBeGreaterThan(baseline)
  })
})
