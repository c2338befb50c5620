import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {gzipSync} from 'node:zlib'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import BoardsList from '../../commands/boards/list.js'
import Jobs from '../../commands/jobs.js'
import Runs from '../../commands/runs.js'
import Sweep from '../../commands/sweep.js'
import {loadBoardDirectory} from '../../src/app/board-directory.js'
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

  it('follows the boards with matches with --follow: a file of boards per ATS, named in sources', async () => {
    const result = await sweep(['--follow', '--min-score', '40', '--json'])
    const summary = JSON.parse(result.stdout)
    expect(summary.followed.added.length).toBeGreaterThan(0)
    const config = JSON.parse(readFileSync(join(home.path, 'config.json'), 'utf8'))
    type Entry = {type: string; region?: string; boards_file?: string}
    const followed = config.sources.filter((entry: Entry) => entry.boards_file !== undefined)
    // One entry per ATS (and Lever's EU instance), each naming its file beside the config.
    expect(followed.map((entry: Entry) => entry.boards_file).sort()).toEqual(
      [...new Set(summary.followed.added.map((name: string) => name.split(':')[0]))]
        .map((type) => `followed-${type}.txt`)
        .concat('followed-lever-eu.txt')
        .sort(),
    )
    // Each at the base URL the sweep asked its ATS at (sweep.urls), so the run asks the boards where they were found.
    for (const entry of followed as (Entry & {url?: string})[])
      expect(entry.url, entry.type).toBe(config.sweep.urls[entry.type])
    const eu = config.sources.find((entry: Entry) => entry.type === 'lever' && entry.region === 'eu')
    expect(eu.boards_file).toBe('followed-lever-eu.txt')
    expect(readFileSync(join(home.path, 'followed-lever-eu.txt'), 'utf8')).toMatch(/\nlv7 Lever Co 7\n$/)
    const slugs = followed.flatMap((entry: Entry) =>
      readFileSync(join(home.path, entry.boards_file!), 'utf8')
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('#'))
        .map((line) => `${entry.type}:${line.split(' ')[0]}`),
    )
    expect(slugs.sort()).toEqual([...summary.followed.added].sort())
    const best = summary.companies.filter((one: {best_score: number}) => one.best_score >= 40).length
    expect(summary.followed.added.length).toBe(best)
    // Following again adds nothing twice: every board is present, in its file.
    const again = JSON.parse((await sweep(['--follow', '--min-score', '40', '--force', '--json'])).stdout)
    expect(again.followed).toEqual({added: [], present: expect.arrayContaining(summary.followed.added)})
    expect(JSON.parse(readFileSync(join(home.path, 'config.json'), 'utf8')).sources).toEqual(config.sources)
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

  it('sweeps the shipped directory when no directory is named, and sweep.directory when set', async () => {
    const result = await runCommand(Sweep, ['--ats', 'greenhouse', '--limit', '3', '--json'], {
      home: home.path,
      env: NOW,
    })
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({status: 'done', boards: 3, asked: 3})
    const first = [...loadBoardDirectory().boardsOf('greenhouse')].slice(0, 3).map((board) => board.slug)
    const asked = mirror.requests.filter((one) => /^\/v1\/boards\/[^/]+\/jobs(?:\?|$)/.test(one.url))
    expect(asked.map((one) => decodeURIComponent((one.url.split('/')[3] ?? '').split('?')[0] ?? '')).sort()).toEqual(
      [...first].sort(),
    )
    const configured = await runCommandLine(['config', 'set', 'sweep.directory', directory], {home: home.path})
    expect(configured.code).toBe(0)
    const swept = await runCommand(Sweep, ['--force', '--json'], {home: home.path, env: NOW})
    expect(JSON.parse(swept.stdout)).toMatchObject({status: 'done', boards: 39})
  })

  it("sweeps a file of the shipped directory's form, its boards keyed as the same boards in JSONL", async () => {
    expect((await sweep(['--quiet'])).code).toBe(0)
    const lines = readFileSync(directory, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    const byAts = new Map<string, string[]>()
    for (const line of lines) {
      // The shipped form writes a Workday site as a `sources` entry takes it.
      const slug = line.ats === 'workday' ? line.slug.replace('.myworkdayjobs.com/', '/') : line.slug
      const row = [slug, line.company, ...(line.region ? [line.region] : [])].join('\t')
      byAts.set(line.ats, [...(byAts.get(line.ats) ?? []), row])
    }
    const text = `jobagent-directory 1\n${[...byAts].map(([ats, rows]) => `#${ats} ${rows.length}\n${rows.join('\n')}`).join('\n')}\n`
    const shipped = join(home.path, 'directory.tsv.gz')
    writeFileSync(shipped, gzipSync(text))
    const again = await runCommand(Sweep, ['--directory', shipped, '--force', '--json'], {
      home: home.path,
      env: {JOBAGENT_NOW: '2026-11-22T07:00:00'},
    })
    expect(again.code).toBe(0)
    // The Greenhouse boards answer 304 to the ETag kept under the same keys; the dead ones rest.
    expect(JSON.parse(again.stdout)).toMatchObject({status: 'done', boards: 39, resting: 3})
    expect(mirror.count('304', 'greenhouse')).toBe(12)
    const broken = join(home.path, 'broken.tsv')
    writeFileSync(broken, 'jobagent-directory 1\n#greenhouse 2\ngh1\n')
    const bad = await runCommand(Sweep, ['--directory', broken], {home: home.path, env: NOW})
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/^Error: .*broken\.tsv: line \d+: #greenhouse announces 2 boards, 1 follow it/m)
  })
  it('refuses a second sweep while one holds the lock, naming the sweep and how to go on (exit 1)', async () => {
    writeFileSync(join(home.path, 'sweep.lock'), String(process.pid))
    const result = await sweep([])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`Error: another jobagent sweep is in progress (pid ${process.pid})`)
    expect(result.stderr).toContain(
      `Hint: wait for it to finish, or stop it (Ctrl-C in its terminal, or kill ${process.pid}) and continue it later with: jobagent sweep`,
    )
    expect(mirror.requests).toEqual([])
  })
  it('refuses sweep.urls keyed by a name that is no ATS, naming the key', async () => {
    const set = await runCommandLine(['config', 'set', 'sweep.urls', '{"greenhous": "http://127.0.0.1:9"}'], {
      home: home.path,
    })
    expect(set.code).toBe(2)
    expect(set.stderr).toMatch(/^Error: .*sweep\.urls.*greenhous/m)
    expect(set.stderr).toMatch(/^Hint: /m)
    writeFileSync(
      join(home.path, 'config.json'),
      JSON.stringify({sweep: {urls: {workable: mirror.url, gren: mirror.url}}}),
    )
    const result = await sweep([])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^Error: .*sweep\.urls.*gren/m)
    expect(mirror.requests).toEqual([])
  })
  it('records how each ATS fared in the run of the sweep, which runs and runs --json show', async () => {
    expect((await sweep(['--quiet'])).code).toBe(0)
    const listed = JSON.parse((await runCommand(Runs, ['--json'], {home: home.path, env: NOW})).stdout)
    const run = listed.runs[0]
    expect(run.mode).toBe('sweep')
    const greenhouse = run.sources.find((source: {name: string}) => source.name === 'sweep:greenhouse')
    expect(greenhouse).toMatchObject({
      ok: true,
      error: '1 of 15 boards failed (malformed answer 1)',
      boards: {asked: 15, answered: 12, unchanged: 0, dead: 2, resting: 0, failed: 1},
    })
    expect(run.sources.map((source: {name: string}) => source.name).sort()).toEqual([
      'sweep:ashby',
      'sweep:greenhouse',
      'sweep:lever',
      'sweep:smartrecruiters',
      'sweep:workday',
    ])
    const table = await runCommand(Runs, [], {home: home.path, env: NOW})
    expect(table.stdout).toMatch(/35\/39 boards answered, 3 dead; greenhouse 1 failed/)
  })
  it('draws live progress on a terminal (boards of total, per ATS, jobs, candidates, rate, time left)', async () => {
    const result = await runCommand(Sweep, ['--directory', directory], {
      home: home.path,
      env: NOW,
      stderrTerminal: true,
    })
    expect(result.code).toBe(0)
    // The lines are drawn again below each log line; the last drawing, under the last ATS's line, is complete.
    const frames = [
      ...result.stderr.matchAll(
        /(\d+) of 39 boards, (\d+) jobs seen, (\d+) candidates, (\d+) failed; [\d.]+ boards\/s, about \d+ s left\n(.*)/g,
      ),
    ]
    expect(frames.length).toBeGreaterThan(0)
    const last = frames[frames.length - 1] as RegExpMatchArray
    expect(last[1]).toBe('39')
    expect(last[4]).toBe('1')
    expect(last[5]).toMatch(/greenhouse 15/)
    expect(last[5]).toMatch(/lever 8/)
    expect(last[5]).toMatch(/workday 5/)
    const summary = JSON.parse((await runCommand(Runs, ['--json'], {home: home.path, env: NOW})).stdout).runs[0]
    const jobs = summary.sources.reduce((sum: number, source: {count: number}) => sum + source.count, 0)
    expect(Number(last[2])).toBe(jobs)
    // Once every board is asked, the line says the candidates are being ranked.
    expect(result.stderr).toContain(`${last[5]}\nEvery board asked: ranking ${last[3]} candidates`)
  })

  it('writes one log line per ATS off a terminal, and no live lines', async () => {
    const result = await sweep([])
    expect(result.code).toBe(0)
    const lines = result.stderr
      .split('\n')
      .filter((line) => /\| INFO \| jobagent\.sweep\.\w+ \| \d+ boards:/.test(line))
    expect(lines.map((line) => /jobagent\.sweep\.(\w+)/.exec(line)?.[1]).sort()).toEqual([
      'ashby',
      'greenhouse',
      'lever',
      'smartrecruiters',
      'workday',
    ])
    expect(result.stderr).not.toMatch(/boards\/s|of 39 boards/)
    expect(result.stderr).not.toContain('\u001b[')
  })
})
