import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import type {Profile} from '../../../src/core/matching/profile.js'
import {scoreJobs} from '../../../src/core/matching/score.js'
import {VerdictModel} from '../../../src/core/matching/verdicts.js'
import {knowledge} from '../../helpers/knowledge.js'
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
  verdictFigures,
} from '../../helpers/relevance.js'

const K = 10
const jobs = relevanceJobs()
const profiles = relevanceFixture<Record<string, Profile>>('profiles.json')
const labels = relevanceFixture<Record<string, Grades>>('labels.json')
const urls = jobs.map((job) => job.url)

describe('the labelled evaluation set', () => {
  it('holds the captured jobs once each, and profiles with something to find', () => {
    expect(new Set(urls).size).toBe(jobs.length)
    for (const grades of Object.values(labels)) expect(Math.max(...Object.values(grades))).toBeGreaterThan(0)
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

describe('ranking the labelled jobs for each profile', () => {
  const figures = relevanceFigures((scored, profile) => scoreJobs(scored, profile, {knowledge}), K)
  const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length

  const groupMean = (half: string) => mean(figures.filter((each) => each.half === half).map((each) => each.jobagent))
  const lifts = verdictFigures((scored, profile, judged) =>
    scoreJobs(scored, profile, {
      knowledge,
      verdictModel: judged.length > 0 ? new VerdictModel(judged, knowledge.occupations) : null,
    }),
  )
  /** A group's mean lift from verdicts: NDCG@10 of the jobs not judged, after less before. */
  const meanLift = (half: string) =>
    mean(lifts.filter((each) => each.half === half).map(({before, after}) => after - before))

  it('prints NDCG@10 per person beside BM25, per group, and the verdicts lift', () => {
    for (const {profile, half, jobagent, bm25Skills, bm25RolesSkills} of figures) {
      console.log(
        `NDCG@${K} ${half} ${profile}: jobagent ${jobagent.toFixed(3)}, BM25 skills ${bm25Skills.toFixed(3)}, ` +
          `BM25 roles+skills ${bm25RolesSkills.toFixed(3)}`,
      )
    }
    for (const half of ['design', 'held-out']) console.log(`NDCG@${K} ${half} mean: ${groupMean(half).toFixed(3)}`)
    for (const {profile, half, before, after} of lifts) {
      console.log(
        `verdicts ${half} ${profile}: NDCG@${K} of unjudged jobs ${before.toFixed(3)} -> ${after.toFixed(3)}, ` +
          `lift ${(after - before).toFixed(3)}`,
      )
    }
    for (const half of ['design', 'held-out']) {
      const rows = lifts.filter((each) => each.half === half)
      console.log(
        `verdicts ${half} mean: NDCG@${K} of unjudged jobs ${mean(rows.map((row) => row.before)).toFixed(3)} -> ` +
          `${mean(rows.map((row) => row.after)).toFixed(3)}, lift ${meanLift(half).toFixed(3)} over ${rows.length} people`,
      )
    }
    expect(figures.length).toBe(Object.keys(profiles).length)
  })

  /**
   * The figures the ranking has reached (floors.json), so that no change makes it worse unnoticed: every person's
   * NDCG@10, each group's mean and each group's mean lift from verdicts stay at or above them, and no further person falls below BM25
   * over roles and skills. A change that ranks better raises them in floors.json.
   */
  it('ranks no worse than the figures it has reached, person by person', () => {
    const floors = relevanceFixture<{
      ndcg_at_10: Record<string, number>
      group_mean: Record<string, number>
      below_bm25_roles_skills: string[]
      verdict_mean_lift: Record<string, number>
    }>('floors.json')
    const slack = 0.0005
    for (const {profile, jobagent, bm25RolesSkills} of figures) {
      expect(jobagent, profile).toBeGreaterThanOrEqual((floors.ndcg_at_10[profile] ?? 1) - slack)
      if (!floors.below_bm25_roles_skills.includes(profile))
        expect(jobagent, profile).toBeGreaterThanOrEqual(bm25RolesSkills)
    }
    for (const [half, floor] of Object.entries(floors.group_mean)) {
      expect(groupMean(half), half).toBeGreaterThanOrEqual(floor - slack)
    }
    for (const [half, floor] of Object.entries(floors.verdict_mean_lift)) {
      expect(meanLift(half), `verdicts lift, ${half}`).toBeGreaterThanOrEqual(floor - slack)
    }
  })

  // The bars the matching issue sets. They are not met yet (docs/MATCHING.md, "How well it ranks"): this test passes
  // while they fail, and fails, to be turned into a plain test, once every bar holds.
  it.fails('meets the bars: every person at or above BM25 over roles and skills, 0.75 in each group, +0.05 of verdicts', () => {
    for (const {profile, jobagent, bm25RolesSkills} of figures) {
      expect(jobagent, profile).toBeGreaterThanOrEqual(bm25RolesSkills)
    }
    for (const half of ['design', 'held-out']) {
      expect(groupMean(half), half).toBeGreaterThanOrEqual(0.75)
      expect(meanLift(half), `verdicts lift, ${half}`).toBeGreaterThanOrEqual(0.05)
    }
  })

  it('holds at least 8 held-out people among profiles with roles and a home, over 300 jobs or more', () => {
    const profiles = relevanceFixture<Record<string, Profile>>('profiles.json')
    for (const [name, profile] of Object.entries(profiles)) {
      expect(profile.roles.length, name).toBeGreaterThan(0)
      expect(profile.home, name).not.toBeNull()
    }
    const halves = figures.map((figure) => figure.half)
    expect(halves.filter((half) => half === 'held-out').length).toBeGreaterThanOrEqual(8)
    expect(halves.filter((half) => half === 'design').length).toBeGreaterThanOrEqual(8)
    expect(jobs.length).toBeGreaterThanOrEqual(300)
  })
})

describe('the cases that showed the old score did not generalise', () => {
  // A data/ML person with skills only, as a new user would write it (issue "Matching that generalises").
  const data: Profile = {
    roles: [],
    skills: {python: 3, 'machine learning': 3, 'data engineering': 2, sql: 2, spark: 1, llm: 1},
    avoid: [],
    seniority: 'any',
    home: null,
    locations: ['remote', 'worldwide', 'anywhere'],
  }
  const scoreOf = (profile: Profile, title: string, company: string) => {
    const scored = scoreJobs(jobs, profile, {knowledge})
    const index = jobs.findIndex((job) => job.title === title && job.company === company)
    return scored[index]!
  }

  it('does not read "anywhere" as a region: GitLab’s AI Engineer, remote from Bangalore, is not gated', () => {
    const ai = scoreOf(data, 'AI Engineer', 'GitLab')
    expect(ai.reasons.some((reason) => reason.startsWith('gate:'))).toBe(false)
    expect(ai.reasons).toContain('+ python, llm (requirements)')
  })

  it('ranks a sales job named by one tag, and a designer posting with a tag list of every skill, below it', () => {
    const ai = scoreOf(data, 'AI Engineer', 'GitLab')
    for (const locations of [data.locations, ['remote']]) {
      const profile = {...data, locations}
      const petHealth = scoreOf(profile, 'Product Sales Specialist - Pet Health (CST timezone)', 'Tribe Wellness')
      const designer = scoreOf(profile, 'Senior Graphic Designer', 'Lemon.io')
      expect(petHealth.rank).toBeLessThan(ai.rank / 2)
      expect(designer.score).toBe(0)
    }
  })
})
