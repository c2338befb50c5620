import {describe, expect, it} from 'vitest'
import type {Profile} from '../../../src/core/matching/profile.js'
import {scoreJobs} from '../../../src/core/matching/score.js'
import {DEFAULT_NOTIFY_FLOOR, notifyFloor} from '../../../src/core/notifications/notify-floor.js'
import {knowledge} from '../../helpers/knowledge.js'
import {type Grades, relevanceFixture, relevanceJobs} from '../../helpers/relevance.js'

/** The scores of every labelled (person, job) pair, by the grade the person's reader gave the job. */
function scoresByGrade(): Record<0 | 1 | 2, number[]> {
  const jobs = relevanceJobs()
  const profiles = relevanceFixture<Record<string, Profile>>('profiles.json')
  const labels = relevanceFixture<Record<string, Grades>>('labels.json')
  const byGrade: Record<0 | 1 | 2, number[]> = {0: [], 1: [], 2: []}
  for (const [name, profile] of Object.entries(profiles)) {
    scoreJobs(jobs, profile, {knowledge}).forEach((scored, index) => {
      const grade = labels[name]?.[jobs[index]?.url ?? ''] as 0 | 1 | 2
      byGrade[grade].push(scored.score ?? 0)
    })
  }
  return byGrade
}

describe('the default notification floor', () => {
  const byGrade = scoresByGrade()
  const kept = (grade: 0 | 1 | 2, floor: number) =>
    Math.round((1000 * byGrade[grade].filter((score) => score >= floor).length) / byGrade[grade].length) / 10

  it('keeps the strong matches of the labelled set and leaves out most jobs graded not relevant', () => {
    const table = [5, 10, 15, 20, 25, 30].map((floor) => ({
      floor,
      strong: kept(2, floor),
      partly: kept(1, floor),
      not: kept(0, floor),
    }))
    console.log(
      `pairs: ${byGrade[2].length} strong, ${byGrade[1].length} partly, ${byGrade[0].length} not relevant\n` +
        table.map((row) => `floor ${row.floor}: ${row.strong}% / ${row.partly}% / ${row.not}%`).join('\n'),
    )
    // The figures docs/CONFIGURATION.md gives for the default.
    expect(kept(2, DEFAULT_NOTIFY_FLOOR)).toBeGreaterThanOrEqual(95)
    expect(kept(0, DEFAULT_NOTIFY_FLOOR)).toBeLessThanOrEqual(4)
    // No lower floor keeps more strong matches; the next one up loses some.
    expect(kept(2, 5)).toBe(kept(2, DEFAULT_NOTIFY_FLOOR))
    expect(kept(2, DEFAULT_NOTIFY_FLOOR + 5)).toBeLessThan(kept(2, DEFAULT_NOTIFY_FLOOR))
  })

  it('is the floor unless notify.min_score is set, and 0 set is no floor', () => {
    expect(notifyFloor({})).toBe(DEFAULT_NOTIFY_FLOOR)
    expect(notifyFloor({min_score: 0})).toBe(0)
    expect(notifyFloor({min_score: 40})).toBe(40)
  })
})
