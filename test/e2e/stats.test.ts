import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'
import {daysAgo} from '../helpers/tracker.js'

let home: ReturnType<typeof tempDir>
const cli = (...args: string[]) => runCommandLine(args, {home: home.path})

function record(name: string, source: string, status: string, applied_date: string) {
  return {
    title: name,
    company: 'Acme',
    location: '',
    url: `https://example.org/jobs/${name}`,
    source,
    status,
    applied_date,
  }
}

beforeEach(async () => {
  home = tempDir('jobagent-stats-')
  // A and B are answered now, 10 and 20 days after they were sent; C is back-dated to 200 days ago and imported
  // already interviewing; D is only saved.
  const back = daysAgo(200)
  const file = join(home.path, 'applications.json')
  writeFileSync(
    file,
    JSON.stringify([
      record('A', 'remoteok', 'applied', daysAgo(10)),
      record('B', 'greenhouse', 'applied', daysAgo(20)),
      record('C', 'lever', 'interviewing', back),
      record('D', 'remoteok', 'saved', daysAgo(1)),
    ]),
  )
  for (const args of [
    ['import', file],
    ['status', 'https://example.org/jobs/A', 'interviewing'],
    ['status', 'https://example.org/jobs/B', 'rejected'],
  ]) {
    const result = await cli(...args)
    expect(result.code, result.stderr).toBe(0)
  }
})

afterEach(() => {
  home.cleanup()
})

describe('jobagent stats', () => {
  it('prints the funnel, the response rate and the median days to response with --json', async () => {
    const result = await cli('stats', '--json')
    expect(result.code, result.stderr).toBe(0)
    const stats = JSON.parse(result.stdout)
    // Reached: saved A B C D; applied A B C; interviewing A C. Answered: A, B, C of 3; days: 10 and 20.
    expect(stats.funnel.map((step: {count: number}) => step.count)).toEqual([4, 3, 2, 0, 0])
    expect(stats.funnel[2]).toEqual({stage: 'interviewing', count: 2, conversion: 0.667})
    expect(stats).toMatchObject({
      since: null,
      total: 4,
      applied: 3,
      responded: 3,
      response_rate: 1,
      median_days_to_response: 15,
    })
    expect(stats.by_status).toMatchObject({saved: 1, interviewing: 2, rejected: 1, applied: 0})
    expect(stats.by_source.map((group: {source: string}) => group.source)).toEqual(['greenhouse', 'lever', 'remoteok'])
    expect(stats.by_month[0]).toMatchObject({month: daysAgo(200).slice(0, 7), total: 1, responded: 1})
  })

  it('counts only applications applied for within --since', async () => {
    const result = await cli('stats', '--since', '90d', '--json')
    expect(result.code, result.stderr).toBe(0)
    const stats = JSON.parse(result.stdout)
    expect(stats.since.slice(0, 10)).toBe(daysAgo(90).slice(0, 10))
    expect(stats.funnel.map((step: {count: number}) => step.count)).toEqual([3, 2, 1, 0, 0])
    expect(stats).toMatchObject({total: 3, applied: 2, responded: 2, response_rate: 1})
  })

  it('renders the figures as text', async () => {
    const result = await cli('stats')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('Applications: 4 (saved 1, interviewing 2, rejected 1)')
    expect(result.stdout).toMatch(/^interviewing +2 +66\.7%$/m)
    expect(result.stdout).toContain('Response rate: 100.0% (3 of 3 applied for moved on)')
    expect(result.stdout).toContain('Median time to first response: 15 days')
    expect(result.stdout).toMatch(/^remoteok +2 +1 +1 +0 +0 +100\.0% +10$/m)
  })

  it('refuses a period it cannot read, with exit 2 and no stack trace', async () => {
    const result = await cli('stats', '--since', 'soon')
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('invalid since: soon')
    expect(result.stderr).not.toContain('    at ')
  })

  it('says what to do when nothing is tracked', async () => {
    const empty = tempDir('jobagent-stats-empty-')
    try {
      const result = await runCommandLine(['stats'], {home: empty.path})
      expect(result.code, result.stderr).toBe(0)
      expect(result.stdout).toContain('No application to count')
    } finally {
      empty.cleanup()
    }
  })
})
