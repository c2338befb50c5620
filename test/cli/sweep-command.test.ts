import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import BoardsList from '../../commands/boards/list.js'
import Jobs from '../../commands/jobs.js'
import Sweep from '../../commands/sweep.js'
import {tempDir} from '../helpers/cli.js'
import {runCommand, runCommandLine} from '../helpers/run-command.js'
import {mirrorUrls, type SweepMirror, startSweepMirror, writeTestDirectory} from '../helpers/sweep-mirror.js'

let home: ReturnType<typeof tempDir>
let mirror: SweepMirror
let directory: string
const NOW = {JOBAGENT_NOW: '2026-11-22T05:00:00'}

beforeEach(async () => {
  home = tempDir('jobagent-sweep-command-')
  mirror = await startSweepMirror()
  directory = writeTestDirectory(home.path, {busy: false})
  const config = {
    profile: {roles: ['software engineer', 'ai engineer', 'account executive']},
    sweep: {urls: mirrorUrls(mirror)},
  }
  writeFileSync(join(home.path, 'config.json'), JSON.stringify(config), {mode: 0o600})
})

afterEach(async () => {
  await mirror.close()
  home.cleanup()
})

const sweep = (args: string[], env: Record<string, string> = NOW) =>
  runCommand(Sweep, ['--directory', directory, ...args], {home: home.path, env})

describe('jobagent sweep', () => {
  it('prints the stored run summary with --json, and jobs --json lists the matches', async () => {
    const result = await sweep(['--json'])
    expect(result.stderr).toMatch(
      /\| INFO \| jobagent\.sweep\.greenhouse \| 15 boards: 12 answered, 0 unchanged, 2 dead/,
    )
    expect(result.code).toBe(0)
    const summary = JSON.parse(result.stdout)
    expect(summary).toMatchObject({status: 'done', boards: 39, asked: 39, dead: 3, failed: 1, resumed: false})
    expect(summary.failed_by_reason).toEqual({'malformed answer': 1})
    expect(summary.matches).toBeGreaterThan(0)
    const jobs = await runCommand(Jobs, ['--json'], {home: home.path, env: NOW})
    const listed = JSON.parse(jobs.stdout)
    expect(listed.length).toBe(summary.matches)
    expect(listed.every((job: {score: number}) => job.score >= 30)).toBe(true)
    expect(new Set(listed.map((job: {source: string}) => job.source))).toContain('greenhouse')
  })

  it('refuses a second sweep within sweep.interval_hours (exit 1) and sweeps with --force', async () => {
    expect((await sweep(['--quiet'])).code).toBe(0)
    const again = await sweep([], {JOBAGENT_NOW: '2026-11-22T07:00:00'})
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/^Error: the last sweep finished at .*sweep.interval_hours \(24\)/m)
    expect(again.stderr).toContain('Hint: sweep again anyway with: jobagent sweep --force')
    const forced = await sweep(['--force', '--json'], {JOBAGENT_NOW: '2026-11-22T07:00:00'})
    expect(forced.code).toBe(0)
    expect(JSON.parse(forced.stdout)).toMatchObject({status: 'done', resting: 3})
  })

  it('sweeps a subset: --ats, --limit and --companies', async () => {
    const ats = JSON.parse((await sweep(['--ats', 'lever,ashby', '--json'])).stdout)
    expect(ats.boards).toBe(8 + 6)
    expect(mirror.requests.every((one) => /^\/(v0\/postings|posting-api)\//.test(one.url))).toBe(true)
    const limited = JSON.parse((await sweep(['--limit', '5', '--force', '--restart', '--json'])).stdout)
    expect(limited.boards).toBe(5)
    const companies = join(home.path, 'companies.txt')
    writeFileSync(companies, '# mine\nGreenhouse Co 3\nlv2\n')
    const chosen = JSON.parse((await sweep(['--companies', companies, '--force', '--json'])).stdout)
    expect(chosen.boards).toBe(2)
  })

  it('adds the boards with matches to sources with --follow', async () => {
    const result = await sweep(['--follow', '--min-score', '40', '--json'])
    const summary = JSON.parse(result.stdout)
    expect(summary.followed.added.length).toBeGreaterThan(0)
    const config = JSON.parse(readFileSync(join(home.path, 'config.json'), 'utf8'))
    type Ref = string | {slug: string; company?: string}
    const names = config.sources.flatMap((entry: {type: string; boards?: Ref[]; sites?: Ref[]; companies?: Ref[]}) =>
      [...(entry.boards ?? []), ...(entry.sites ?? []), ...(entry.companies ?? [])].map(
        (ref) => `${entry.type}:${typeof ref === 'string' ? ref : ref.slug}`,
      ),
    )
    expect(names).toEqual(expect.arrayContaining(summary.followed.added))
    // A Lever site of the EU instance goes into an entry of that region.
    const eu = config.sources.find(
      (entry: {type: string; region?: string}) => entry.type === 'lever' && entry.region === 'eu',
    )
    expect(eu.sites).toEqual([{slug: 'lv7', company: 'Lever Co 7'}])
    const best = summary.companies.filter((one: {best_score: number}) => one.best_score >= 40).length
    expect(summary.followed.added.length).toBe(best)
  })

  it('lists the boards found dead with boards list --dead, and skips them in the next sweep', async () => {
    await sweep(['--quiet'])
    const dead = await runCommand(BoardsList, ['--dead', '--json'], {home: home.path, env: NOW})
    const listed = JSON.parse(dead.stdout)
    expect(listed.boards.map((board: {key: string}) => board.key)).toEqual([
      'greenhouse:empty-gh',
      'greenhouse:gone-gh',
      'lever:empty-lv',
    ])
    expect(listed.boards[0]).toMatchObject({company: 'Empty Inc', dead_count: 1})
    expect(listed.boards[0].dead_since).toMatch(/^2026-11-22T05:00/)
    const table = await runCommand(BoardsList, ['--dead'], {home: home.path, env: NOW})
    expect(table.stdout).toMatch(/greenhouse:gone-gh\s+Gone Inc\s+2026-11-22\s+2026-11-29\s+1/)
    const asked = mirror.requests.length
    await sweep(['--force', '--quiet'])
    expect(mirror.requests.slice(asked).filter((one) => /gone-gh|empty-/.test(one.url))).toEqual([])
  })

  it('says what to give when no directory is named', async () => {
    const result = await runCommand(Sweep, [], {home: home.path, env: NOW})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('Error: no directory given to sweep')
    expect(result.stderr).toContain('Hint: name a directory file')
    const configured = await runCommandLine(['config', 'set', 'sweep.directory', directory], {home: home.path})
    expect(configured.code).toBe(0)
    expect((await runCommand(Sweep, ['--quiet'], {home: home.path, env: NOW})).code).toBe(0)
  })
})
