import {writeFileSync} from 'node:fs'
import {type AddressInfo, createServer} from 'node:net'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import BoardsList from '../../commands/boards/list.js'
import ConfigSet from '../../commands/config/set.js'
import Jobs from '../../commands/jobs.js'
import Run from '../../commands/run.js'
import Runs from '../../commands/runs.js'
import {runAgent} from '../../src/app/agent.js'
import {AppContext} from '../../src/app/context.js'
import {tempDir} from '../helpers/cli.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {runCommand} from '../helpers/run-command.js'
import {type SweepMirror, startSweepMirror} from '../helpers/sweep-mirror.js'

let mirror: SweepMirror
let home: ReturnType<typeof tempDir>
const NOW = '2026-11-22T05:00:00'

/** 300 Greenhouse companies: 297 that answer, one gone (404), one busy (429 with Retry-After once), one malformed. */
function writeCompanies(dir: string): string {
  const lines = ['# the companies this person follows', '']
  for (let i = 1; i <= 297; i++) lines.push(i % 2 === 0 ? `gh${i} Greenhouse Co ${i}` : `gh${i}`)
  lines.push('gone-one', 'busy-one', '{"ats": "greenhouse", "slug": "broken-one", "company": "Broken Inc"}')
  const file = join(dir, 'companies.txt')
  writeFileSync(file, `${lines.join('\n')}\n`)
  return file
}

function writeConfig(sources: unknown[]): void {
  writeFileSync(join(home.path, 'config.json'), JSON.stringify({sources, sweep: {per_ats: 8}}), {mode: 0o600})
}

beforeAll(async () => {
  mirror = await startSweepMirror()
})
afterAll(() => mirror.close())
beforeEach(() => {
  home = tempDir('jobagent-boards-file-')
  writeCompanies(home.path)
  writeConfig([{type: 'greenhouse', boards_file: 'companies.txt', url: mirror.url}])
})
afterEach(() => home.cleanup())

async function run(now = NOW) {
  const log = memoryLogger('INFO')
  const context = new AppContext({env: {JOBAGENT_HOME: home.path, JOBAGENT_NOW: now}, logger: log.logger})
  try {
    const summary = await runAgent(context, {})
    return {summary, lines: log.parsed()}
  } finally {
    await context.close()
  }
}

describe('a sources entry with boards_file', () => {
  it('asks 300 companies as one source, then only conditionally, reusing the stored jobs; a changed board adds its job', async () => {
    // Given a file of 300 Greenhouse companies on one mirror
    // When the run asks them the first time
    const first = await run()
    // Then one source reports every board, the 429 waited out and asked again, the 404 dead, the malformed one failed
    expect(first.summary.exit_code).toBe(0)
    expect(first.summary.sources).toHaveLength(1)
    expect(first.summary.sources[0]).toMatchObject({
      name: 'greenhouse:companies.txt',
      ok: true,
      count: 298 * 3,
      error: '1 of 300 boards failed (malformed answer 1)',
      boards: {asked: 300, answered: 298, unchanged: 0, dead: 1, resting: 0, failed: 1},
    })
    expect(first.summary.jobs_found).toBe(298 * 3)
    // A line's company name names the board's jobs; a slug alone names them by the slug
    const companyOf = (slug: string) => first.summary.jobs.find((job) => job.url.endsWith(`-${slug}`))?.company
    expect([companyOf('gh2'), companyOf('gh3'), companyOf('busy-one')]).toEqual(['Greenhouse Co 2', 'gh3', 'busy-one'])
    expect(mirror.count('list', 'greenhouse')).toBe(301)
    const sourceLines = first.lines.filter((line) => line.name.startsWith('jobagent.sources.greenhouse'))
    expect(sourceLines).toHaveLength(1)
    expect(sourceLines[0]?.message).toMatch(
      /^greenhouse:companies\.txt: 894 jobs in [\d.]+ s from 300 boards: 298 answered, 0 unchanged, 1 dead, 0 resting, 1 failed; 1 of 300 boards failed \(malformed answer 1\)$/,
    )

    // And the gone board is listed dead, resting for a week
    const dead = await runCommand(BoardsList, ['--dead', '--json'], {home: home.path, env: {JOBAGENT_NOW: NOW}})
    expect(JSON.parse(dead.stdout)).toMatchObject({
      count: 1,
      boards: [{key: 'greenhouse:gone-one', dead_count: 1, dead_until: expect.stringMatching(/^2026-11-29T/)}],
    })

    // When the run asks them again and nothing changed
    const listsBefore = mirror.count('list', 'greenhouse')
    const second = await run('2026-11-23T05:00:00')
    // Then each board that answered is asked with its ETag only and answers 304, the dead one rests, the broken one is asked again
    expect(mirror.count('list', 'greenhouse') - listsBefore).toBe(299)
    expect(mirror.count('conditional', 'greenhouse')).toBe(298)
    expect(mirror.count('304', 'greenhouse')).toBe(298)
    expect(second.summary.sources[0]).toMatchObject({
      count: 298 * 3,
      boards: {asked: 299, answered: 0, unchanged: 298, dead: 0, resting: 1, failed: 1},
    })
    // And the jobs are the stored ones, none closed
    expect(second.summary.jobs_found).toBe(298 * 3)
    expect(second.summary.lifecycle).toMatchObject({closed: 0})
    // And `runs` counts the entry's boards as a sweep counts its boards: an unchanged board answered
    const runs = await runCommand(Runs, [], {
      home: home.path,
      env: {JOBAGENT_NOW: '2026-11-23T06:00:00', COLUMNS: '200'},
    })
    expect(runs.stdout).toMatch(/1\/1 ok; 298\/300 boards answered, 1 dead; greenhouse:companies\.txt 1 failed/)
    expect(runs.stdout).toMatch(/1\/1 ok; 298\/299 boards answered, 0 dead; greenhouse:companies\.txt 1 failed/)

    // When one board changes
    mirror.change('gh5')
    const third = await run('2026-11-24T05:00:00')
    // Then that board is read again and its new job appears; the others stay unchanged
    expect(third.summary.sources[0]).toMatchObject({
      boards: {asked: 299, answered: 1, unchanged: 297, dead: 0, resting: 1, failed: 1},
    })
    expect(third.summary.jobs_found).toBe(298 * 3 + 1)
    expect(third.summary.jobs.map((job) => job.url)).toContain('https://x.org/gh5/new')
    const jobs = await runCommand(Jobs, ['--new', '--json'], {
      home: home.path,
      env: {JOBAGENT_NOW: '2026-11-24T06:00:00'},
    })
    expect(jobs.code).toBe(0)
    expect(jobs.stdout).toContain('https://x.org/gh5/new')
  }, 120_000)

  it('prints the source with its board counts under run --json, and exits 0 when only some boards failed', async () => {
    writeFileSync(join(home.path, 'few.txt'), 'gh1\ngh2\ngone-one\nbroken-one\n')
    writeConfig([{type: 'greenhouse', boards_file: 'few.txt', url: mirror.url}])
    const result = await runCommand(Run, ['--json'], {home: home.path, env: {JOBAGENT_NOW: NOW}})
    expect(result.code).toBe(0)
    const summary = JSON.parse(result.stdout) as {sources: Array<{name: string; boards: unknown}>}
    expect(summary.sources).toEqual([
      expect.objectContaining({
        name: 'greenhouse:few.txt',
        ok: true,
        count: 6,
        boards: {asked: 4, answered: 2, unchanged: 0, dead: 1, resting: 0, failed: 1},
      }),
    ])
    // A source of many boards fails only when all its boards did, so --strict still exits 0
    const strict = await runCommand(Run, ['--json', '--strict'], {home: home.path, env: {JOBAGENT_NOW: NOW}})
    expect(strict.code).toBe(0)
  })

  it('fails the run when every board of the file fails, with the reasons', async () => {
    writeFileSync(join(home.path, 'broken.txt'), 'broken-a\nbroken-b\n')
    writeConfig([{type: 'greenhouse', boards_file: 'broken.txt', url: mirror.url}])
    const result = await runCommand(Run, [], {home: home.path, env: {JOBAGENT_NOW: NOW}})
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('greenhouse:broken.txt: failed after')
    expect(result.stderr).toContain('2 of 2 boards failed (malformed answer 2)')
  })

  it('stops asking a file of boards that cannot be reached at all: the rest fail at once, nothing waits out a back-off', async () => {
    // A host that takes every connection and drops it: each board fails with a network error.
    let connections = 0
    const dropping = createServer((socket) => {
      connections++
      socket.destroy()
    })
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve))
    try {
      const {port} = dropping.address() as AddressInfo
      writeConfig([{type: 'greenhouse', boards_file: 'companies.txt', url: `http://127.0.0.1:${port}`}])
      const {summary} = await run()
      expect(summary.exit_code).toBe(1)
      expect(summary.sources[0]).toMatchObject({ok: false, error: '300 of 300 boards failed (network error 300)'})
      // Ten network failures with no board answered say the host is unreachable, as a sweep judges it: the boards
      // in flight then (8 a platform at once) end, the others are not asked.
      expect(connections).toBeGreaterThanOrEqual(10)
      expect(connections).toBeLessThanOrEqual(24)
    } finally {
      await new Promise((resolve) => dropping.close(resolve))
    }
  })

  it('refuses a missing file, a bad line and a list beside the file, naming the file and line', async () => {
    const set = (value: unknown) => runCommand(ConfigSet, ['sources', JSON.stringify(value)], {home: home.path})
    const missing = await set([{type: 'greenhouse', boards_file: 'nowhere.txt'}])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain(`the boards_file ${join(home.path, 'nowhere.txt')} does not exist`)

    writeFileSync(join(home.path, 'bad.txt'), 'acme\n{"ats": "lever", "slug": "x"}\n')
    const bad = await set([{type: 'greenhouse', boards_file: 'bad.txt'}])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain(`${join(home.path, 'bad.txt')}:2: a board of lever in a greenhouse entry`)

    const both = await set([{type: 'greenhouse', boards: ['acme'], boards_file: 'companies.txt'}])
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('sources[0].boards_file and boards cannot both name the boards')

    writeFileSync(join(home.path, 'many.txt'), Array.from({length: 2001}, (_, i) => `co${i}`).join('\n'))
    const many = await set([{type: 'greenhouse', boards_file: 'many.txt'}])
    expect(many.code).toBe(2)
    expect(many.stderr).toContain('names more than 2000 boards')

    // A run whose file went missing since is a configuration error too
    writeConfig([{type: 'greenhouse', boards_file: 'gone.txt', url: mirror.url}])
    const run = await runCommand(Run, [], {home: home.path, env: {JOBAGENT_NOW: NOW}})
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('gone.txt does not exist')
  })
})

describe('a sources entry naming its boards in itself', () => {
  const slugs = [...Array.from({length: 297}, (_, i) => `gh${i + 1}`), 'gone-one', 'busy-one', 'broken-one']
  // A mirror of its own: the boards above changed none of its answers.
  let own: SweepMirror
  beforeAll(async () => {
    own = await startSweepMirror()
  })
  afterAll(() => own.close())

  it('asks each board as a source of its own, then only conditionally, as the boards of a file are asked', async () => {
    // Given 300 Greenhouse companies named in the entry's own list
    writeConfig([{type: 'greenhouse', boards: slugs, url: own.url}])
    // When the run asks them the first time
    const first = await run()
    // Then each board has its own outcome: the 429 waited out and asked again, the 404 and the malformed one failed
    expect(first.summary.sources).toHaveLength(300)
    const outcome = (summary: typeof first.summary, name: string) => summary.sources.find((one) => one.name === name)
    expect(outcome(first.summary, 'greenhouse:gh2')).toMatchObject({ok: true, count: 3})
    expect(outcome(first.summary, 'greenhouse:busy-one')).toMatchObject({ok: true, count: 3})
    expect(outcome(first.summary, 'greenhouse:gone-one')).toMatchObject({ok: false, status: 404})
    expect(outcome(first.summary, 'greenhouse:gone-one')?.error).toContain('404')
    expect(outcome(first.summary, 'greenhouse:broken-one')).toMatchObject({ok: false})
    expect(first.summary.jobs_found).toBe(298 * 3)
    expect(own.count('list', 'greenhouse')).toBe(301)
    expect(own.count('conditional', 'greenhouse')).toBe(0)

    // When the run asks them again and nothing changed
    const second = await run('2026-11-23T05:00:00')
    // Then every board that answered is asked with its ETag and answers 304; its jobs are the stored ones
    expect(own.count('list', 'greenhouse')).toBe(301 + 300)
    expect(own.count('conditional', 'greenhouse')).toBe(298)
    expect(own.count('304', 'greenhouse')).toBe(298)
    expect(second.summary.jobs_found).toBe(298 * 3)
    expect(second.summary.lifecycle).toMatchObject({closed: 0})
    // And the gone board, named in the list, is asked every run and fails as itself, toward `run.dead_after_runs`
    expect(outcome(second.summary, 'greenhouse:gone-one')).toMatchObject({ok: false, status: 404})

    // When one board changes, its new job appears
    own.change('gh7')
    const third = await run('2026-11-24T05:00:00')
    expect(third.summary.jobs.map((job) => job.url)).toContain('https://x.org/gh7/new')
    expect(outcome(third.summary, 'greenhouse:gh7')).toMatchObject({ok: true, count: 4})
  }, 120_000)
})
