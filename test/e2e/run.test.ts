import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {DEFAULT_NOTIFY_FLOOR} from '../../src/core/notifications/notify-floor.js'
import {type CliResult, tempDir} from '../helpers/cli.js'
import {parseLogLine} from '../helpers/memory-log.js'
import {type MockServer, sendText, serveBody, startMockServer} from '../helpers/mock-board.js'
import {runCommandLine} from '../helpers/run-command.js'
import {fixtureText} from '../helpers/source-fixtures.js'

let boards: MockServer
let home: {path: string; cleanup: () => void}

beforeAll(async () => {
  boards = await startMockServer({
    '/remoteok/api': serveBody(fixtureText('remoteok.json')),
    '/remotive/api/remote-jobs': serveBody(fixtureText('remotive.json')),
    // A board that answers with a web page instead of JSON: a WARNING, not a failed run.
    '/jobicy/api/v2/remote-jobs': (_req, res) =>
      sendText(res, '<!doctype html><html><body>Just a moment…</body></html>', 200, {'content-type': 'text/html'}),
  })
})
afterAll(() => boards.close())
beforeEach(() => {
  home = tempDir()
})
afterEach(() => home.cleanup())

function configure(sources: unknown[], extra: Record<string, unknown> = {}) {
  writeFileSync(join(home.path, 'config.json'), JSON.stringify({sources, ...extra}), {mode: 0o600})
}

const goodBoards = () => [
  {type: 'remoteok', url: `${boards.url}/remoteok`},
  {type: 'remotive', url: `${boards.url}/remotive`},
]
const jobagent = (args: string[]) => runCommandLine(args, {home: home.path})
const messages = (result: CliResult) =>
  result.stderr
    .trim()
    .split('\n')
    .filter((line) => / \| (DEBUG|INFO|WARNING|ERROR) \| /.test(line))
    .map(parseLogLine)

describe('jobagent run against local boards', () => {
  it('logs every step in order, stores the jobs and prints one JSON summary', async () => {
    configure([...goodBoards(), {type: 'jobicy', url: `${boards.url}/jobicy`}])
    const result = await jobagent(['run', '--json'])

    expect(result.code).toBe(0)
    const lines = messages(result)
    const expected = [
      /^Job Search Agent v\d+\.\d+\.\d+ starting \(mode: production\)$/,
      /^Applications: 0 total, 0 applied, 0 pending$/,
      /^Searching 3 source\(s\): remoteok, remotive, jobicy$/,
      /^remoteok: 13 jobs in \d+\.\d s$/,
      /^remotive: \d+ jobs in \d+\.\d s$/,
      /^jobicy: failed after \d+\.\d s: .*HTML/,
      /^Jobs found: \d+ \(\d+ fetched, after filters and deduplication\)$/,
      /^New jobs \(not yet applied\): \d+$/,
      /^Notifications: none sent; no channel is configured/,
      /^Run completed in \d+\.\d s$/,
    ]
    const positions = expected.map((pattern) => lines.findIndex((line) => pattern.test(line.message)))
    expect(positions).not.toContain(-1)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    expect(lines.find((line) => line.message.startsWith('jobicy:'))?.level).toBe('WARNING')

    const summary = JSON.parse(result.stdout)
    expect(summary).toMatchObject({status: 'ok', exit_code: 0, mode: 'production'})
    expect(summary.sources.map((s: {name: string; ok: boolean}) => [s.name, s.ok])).toEqual([
      ['remoteok', true],
      ['remotive', true],
      ['jobicy', false],
    ])
    const db = new Database(join(home.path, 'jobagent.db'), {readonly: true})
    expect(db.prepare('SELECT count(*) AS n FROM jobs').get()).toEqual({n: summary.jobs_found})
    db.close()
  })

  it('lists the jobs with ids, tracks one by id, and counts it as applied in the next run', async () => {
    configure(goodBoards(), {mode: 'development'})
    const first = JSON.parse((await jobagent(['run', '--json', '--quiet'])).stdout)
    const listed = await jobagent(['jobs', '--json'])
    const jobs = JSON.parse(listed.stdout)
    expect(jobs).toHaveLength(first.jobs_found)
    expect((await jobagent(['jobs'])).stdout).toMatch(/^ID\s+NEW\s+TITLE/m)

    const tracked = await jobagent(['apply', String(jobs[0].id), '--notes', 'from the list'])
    expect(tracked.code).toBe(0)
    expect(tracked.stdout).toContain(jobs[0].url)

    const second = await jobagent(['run', '--json'])
    const summary = JSON.parse(second.stdout)
    expect(summary.new_jobs).toBe(first.new_jobs - 1)
    expect(messages(second)[0]?.message).toContain('(mode: development)')
    expect(messages(second)[1]?.message).toBe('Applications: 1 total, 1 applied, 0 pending')
    expect(JSON.parse((await jobagent(['jobs', '--new', '--json'])).stdout)).toHaveLength(first.new_jobs - 1)
  })

  it('takes an application tracked from a link with tracking parameters as the job of the clean link', async () => {
    configure(goodBoards())
    await jobagent(['run', '--quiet'])
    const jobs = await jobagent(['jobs', '--json'])
    expect(jobs.code, jobs.stderr).toBe(0)
    const [job] = JSON.parse(jobs.stdout) as {id: number; url: string}[]
    const link = `${job!.url}${job!.url.includes('?') ? '&' : '?'}utm_source=linkedin&utm_medium=share`
    const tracked = await jobagent(['apply', link, '--title', 'T', '--company', 'C', '--source', 'linkedin'])
    expect(tracked.code, tracked.stderr).toBe(0)

    const after = await jobagent(['jobs', '--json'])
    expect(after.code, after.stderr).toBe(0)
    const listed = JSON.parse(after.stdout) as {id: number; is_new: boolean}[]
    expect(listed.find((entry) => entry.id === job!.id)).toMatchObject({
      is_new: false,
      tracked_status: 'applied',
      tracked_url: link,
    })
    const again = await jobagent(['apply', String(job!.id)])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('already tracked')
    const second = await jobagent(['run', '--json'])
    expect(second.code, second.stderr).toBe(0)
    expect(messages(second)[1]?.message).toBe('Applications: 1 total, 1 applied, 0 pending')
    const db = new Database(join(home.path, 'jobagent.db'), {readonly: true})
    expect(db.prepare('SELECT count(*) AS n FROM applications').get()).toEqual({n: 1})
    db.close()
  })

  it('shows one job in full with jobagent jobs <id>, and refuses an id it does not hold', async () => {
    configure(goodBoards())
    await jobagent(['run', '--quiet'])
    const jobs = JSON.parse((await jobagent(['jobs', '--json'])).stdout) as {
      id: number
      title: string
      source: string
    }[]
    // Remotive's Workada posting: $18 - $22/hr, a contract, for candidates in the USA.
    const paid = jobs.find((job) => job.title === 'Data Labeling Specialists')!
    const shown = await jobagent(['jobs', String(paid.id)])
    expect(shown.code).toBe(0)
    const lines = shown.stdout.split('\n')
    expect(lines[0]).toBe(`${paid.id}  Data Labeling Specialists`)
    expect(shown.stdout).toMatch(/^Salary: +USD 18 - 22 an hour$/m)
    expect(shown.stdout).toMatch(/^Type: +contract$/m)
    expect(shown.stdout).toMatch(/^Workplace: +remote \(USA\)$/m)
    expect(shown.stdout).toContain('Who We Are\n\nWorkada creates high-quality labeled data')
    expect(shown.stdout).toContain(`Track it with: jobagent apply ${paid.id}`)
    // Wrapped to the width of a terminal: no line of the description is longer than 100 characters.
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(100)

    const json = JSON.parse((await jobagent(['jobs', String(paid.id), '--json'])).stdout)
    expect(json).toMatchObject({id: paid.id, employment_type: 'contract', regions: ['USA'], is_new: true})
    expect(json.salary).toEqual({
      min: 18,
      max: 22,
      currency: 'USD',
      period: 'hour',
      annual_min: 37440,
      annual_max: 45760,
      text: '$18 - $22/hr',
    })

    const missing = await jobagent(['jobs', '99999'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('no job with id 99999')
    const list = await jobagent(['jobs'])
    expect(list.stdout).toMatch(/^ID\s+NEW\s+TITLE\s+COMPANY\s+LOCATION\s+SALARY/m)
    expect(list.stdout).toMatch(/USD 18-22\/h/)
  })

  it('drops the jobs below a salary floor and says what it dropped and kept', async () => {
    configure(goodBoards(), {
      search: {min_salary: {amount: 100000, currency: 'USD', period: 'year', unknown: 'drop'}},
    })
    const result = await jobagent(['run', '--json'])
    expect(result.code).toBe(0)
    const floor = messages(result).find((line) => line.message.startsWith('Salary floor'))
    expect(floor?.message).toMatch(
      /^Salary floor USD 100,000 a year: \d+ jobs? below it dropped, \d+ jobs? without a comparable salary dropped$/,
    )
    const summary = JSON.parse(result.stdout)
    for (const job of summary.jobs)
      expect(job.salary.annual_max ?? job.salary.annual_min).toBeGreaterThanOrEqual(100000)
  })

  it('with a profile: scores the new jobs, notifies those at notify.min_score best first, ranks and explains', async () => {
    configure(goodBoards(), {
      profile: {
        roles: ['customer success manager'],
        skills: {'customer success': 3, 'customer support': 2},
        seniority: 'mid',
        home: 'United States',
        locations: ['remote', 'usa'],
      },
      notify: {urls: ['log://'], min_score: 40},
    })
    const result = await jobagent(['run', '--json'])
    expect(result.code).toBe(0)
    const summary = JSON.parse(result.stdout)
    const matching = messages(result).find((line) => line.message.startsWith('Matching: '))
    expect(matching?.message).toBe(
      `Matching: ${summary.matching.at_or_above} of ${summary.new_jobs} new jobs score 40 or more, ${summary.new_jobs - summary.matching.at_or_above} left out of the notifications below it (scored in ${summary.matching.duration_ms} ms)`,
    )
    expect(summary.matching).toMatchObject({min_score: 40, scored: summary.new_jobs})
    const scores = summary.jobs.map((job: {score: number}) => job.score)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
    expect(summary.notifications.jobs).toBe(summary.matching.at_or_above)
    // The digest on the log channel: best first, each line with its score and first reason.
    const digest = messages(result).filter((line) => line.name === 'jobagent.notify.log')
    const best = summary.jobs[0]
    expect(digest.map((line) => line.message).join('\n')).toContain(`score ${best.score} (${best.reasons[0]})`)

    const listed = JSON.parse((await jobagent(['jobs', '--json', '--min-score', '40'])).stdout)
    expect(listed.length).toBe(summary.matching.at_or_above)
    expect(listed.every((job: {score: number}) => job.score >= 40)).toBe(true)
    const table = await jobagent(['jobs'])
    expect(table.stdout).toMatch(/^ID\s+SCORE\s+NEW\s+TITLE/m)
    const explained = await jobagent(['jobs', String(best.id), '--explain'])
    expect(explained.stdout).toMatch(
      new RegExp(`Score ${best.score} = 100 x relevance [\\d.]+ x \\(1 \\+ verdicts [-+][\\d.]+\\) x gates [\\d.]+ x`),
    )
    expect(explained.stdout).toMatch(/^ {2}role 1\.00$/m)
    expect(explained.stdout).toMatch(/customer success \(weight 3\): \w+ [\d.]+ x rarity/)
  })

  it('with a profile and no notify.min_score: notifies only the jobs at the default floor, 0 meaning no floor', async () => {
    const profile = {
      roles: ['customer success manager'],
      skills: {'customer success': 3, 'customer support': 2},
      seniority: 'mid',
      home: 'United States',
      locations: ['remote', 'usa'],
    }
    configure(goodBoards(), {profile, notify: {urls: ['log://']}})
    const floored = JSON.parse((await jobagent(['run', '--json'])).stdout)
    expect(floored.matching.min_score).toBe(DEFAULT_NOTIFY_FLOOR)
    const below = floored.jobs.filter((job: {score: number}) => job.score < DEFAULT_NOTIFY_FLOOR).length
    // The fixture boards hold jobs of other fields: the floor has something to leave out.
    expect(below).toBeGreaterThan(0)
    expect(floored.matching.at_or_above).toBe(floored.new_jobs - below)
    expect(floored.notifications.jobs).toBe(floored.matching.at_or_above)

    configure(goodBoards(), {profile, notify: {urls: ['log://'], min_score: 0}})
    const result = await jobagent(['run', '--json', '--dry-run'])
    const unfloored = JSON.parse(result.stdout)
    expect(unfloored.matching).toMatchObject({min_score: 0, at_or_above: unfloored.new_jobs})
    expect(messages(result).map((line) => line.message)).toContainEqual(
      expect.stringMatching(
        /^Matching: (\d+) of \1 new jobs score 0 or more, 0 left out of the notifications below it/,
      ),
    )
  })

  it('names an application due for a follow-up in the digest once a period, lists it, and snoozes it', async () => {
    configure(goodBoards(), {notify: {urls: ['log://']}})
    const url = 'https://example.org/jobs/waiting'
    const recorded = await jobagent([
      'apply',
      url,
      '--title',
      'Platform Engineer',
      '--company',
      'Initech',
      '--source',
      'referral',
    ])
    expect(recorded.code).toBe(0)
    const db = new Database(join(home.path, 'jobagent.db'))
    db.prepare("UPDATE applications SET updated_at = '2020-01-01T09:00:00.000' WHERE url = ?").run(url)
    db.close()

    const first = await jobagent(['run'])
    const digest = messages(first).filter((line) => line.name === 'jobagent.notify.log')
    expect(digest[0]?.message).toMatch(/^\d+ new jobs, 1 follow-up due$/)
    expect(digest.map((line) => line.message)).toContainEqual(
      expect.stringMatching(
        /^Follow up: Platform Engineer at Initech \(applied, \d+ days without news\), https:\/\/example\.org\/jobs\/waiting$/,
      ),
    )
    expect(messages(first).find((line) => line.message.startsWith('Notifications: '))?.message).toMatch(
      /^Notifications: sent \d+ job\(s\) and 1 follow-up\(s\) to 1 of 1/,
    )
    // Named once a period: the next run has nothing new and no follow-up to send.
    const second = await jobagent(['run'])
    expect(messages(second).some((line) => line.message.startsWith('Follow up:'))).toBe(false)

    const listed = await jobagent(['followups'])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(/^1 application due for a follow-up/m)
    expect(listed.stdout).toMatch(/^ID\s+WAITING\s+STATUS\s+TITLE\s+COMPANY\s+POSTING\s+URL$/m)
    expect(listed.stdout).toMatch(new RegExp(`^1\\s+\\d+ days\\s+applied\\s.*${url.replaceAll('.', '\\.')}$`, 'm'))
    expect(listed.stdout).toContain('Postpone one with: jobagent status <id> --snooze 7')
    const snoozed = await jobagent(['status', url, '--snooze', '7'])
    expect(snoozed.code).toBe(0)
    expect(snoozed.stdout).toMatch(
      /^No follow-up for #1 https:\/\/example\.org\/jobs\/waiting before \d{4}-\d\d-\d\d\.$/m,
    )
    expect(JSON.parse((await jobagent(['followups', '--json'])).stdout)).toMatchObject({applications: [], count: 0})
    const misuse = await jobagent(['status', url, 'applied', '--snooze', '7'])
    expect(misuse.code).toBe(2)
  })

  it('refuses --min-score without a profile, saying how to set one', async () => {
    configure(goodBoards())
    const result = await jobagent(['jobs', '--min-score', '50'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--min-score needs a profile to score the jobs against')
    expect(result.stderr).toContain('Hint: set one up with: jobagent profile')
  })

  it('exits 1 and leaves the jobs as they were when no board succeeds', async () => {
    configure([{type: 'jobicy', url: `${boards.url}/jobicy`}])
    const result = await jobagent(['run'])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('no source succeeded')
    const db = new Database(join(home.path, 'jobagent.db'), {readonly: true})
    expect(db.prepare('SELECT count(*) AS n FROM jobs').get()).toEqual({n: 0})
    db.close()
  })

  it('exits 1 under --strict when one board failed', async () => {
    configure([...goodBoards(), {type: 'jobicy', url: `${boards.url}/jobicy`}])
    expect((await jobagent(['run', '--strict', '--quiet'])).code).toBe(1)
  })

  it('refuses to start while another run holds the lock', async () => {
    configure(goodBoards())
    writeFileSync(join(home.path, 'run.lock'), String(process.pid))
    const result = await jobagent(['run'])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`another jobagent run is in progress (pid ${process.pid})`)
  })

  it('searches only the boards named by --source and refuses unknown ones with exit 2', async () => {
    configure(goodBoards())
    const only = JSON.parse((await jobagent(['run', '--source', 'remotive', '--json', '--quiet'])).stdout)
    expect(only.sources.map((s: {name: string}) => s.name)).toEqual(['remotive'])
    const unknown = await jobagent(['run', '--source', 'nope'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('unknown source "nope"')
  })

  it('exits 2 naming the entry when a source is misconfigured', async () => {
    configure([{type: 'greenhouse'}])
    const result = await jobagent(['run'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('sources[0].boards')
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })
})
