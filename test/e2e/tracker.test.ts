import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {APPLICATION_FIELDS, APPLICATION_STATUSES} from '../../src/core/applications/application.js'
import {type CliResult, tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'
import {application, readTracker, seedTracker} from '../helpers/tracker.js'

let home: ReturnType<typeof tempDir>
const cli = (...args: string[]) => runCommandLine(args, {home: home.path})

/** Errors the user can fix are reported in words, never as a stack trace. */
function expectUserError(result: CliResult, code: number, ...fragments: string[]): void {
  expect(result.code, result.stderr).toBe(code)
  for (const fragment of fragments) expect(result.stderr).toContain(fragment)
  expect(result.stderr).not.toContain('    at ')
}

const JOB = 'https://example.org/jobs/1'
const APPLY = [JOB, '--title', 'Backend Engineer', '--company', 'Acme', '--location', 'Berlin', '--source', 'remoteok']

beforeEach(() => {
  home = tempDir('jobagent-e2e-')
})

afterEach(() => {
  home.cleanup()
})

describe('jobagent apply', () => {
  it('records an application as applied now and says so', async () => {
    const result = await cli('apply', ...APPLY, '--notes', 'via referral')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe(`Tracked #1 ${JOB} (applied): Backend Engineer at Acme\n`)
    const [row] = readTracker(home.path).applications
    expect(row).toMatchObject({url: JOB, title: 'Backend Engineer', status: 'applied', notes: 'via referral'})
    expect(row?.applied_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/)
  })

  it('prints the record with --json, the eight fields first, and keeps a given status', async () => {
    const result = await cli('apply', ...APPLY, '--status', 'saved', '--json')
    expect(result.code, result.stderr).toBe(0)
    const record = JSON.parse(result.stdout)
    expect(Object.keys(record).slice(0, 9)).toEqual([...APPLICATION_FIELDS, 'id'])
    expect(record).toMatchObject({url: JOB, status: 'saved', notes: '', location: 'Berlin', source: 'remoteok'})
  })

  it('names every missing field and writes nothing', async () => {
    const result = await cli('apply', JOB, '--company', 'Acme')
    expectUserError(result, 2, 'title is required', 'source is required')
    expect(result.stderr).toContain('Hint: give --title, --source (for example manual); or track a job of the last run')
    expect(readTracker(home.path).applications).toEqual([])
  })

  it('refuses a url that is not http(s) with exit 2', async () => {
    const result = await cli('apply', 'ftp://example.org/jobs/1', '--title', 'X', '--company', 'Y', '--source', 'Z')
    expectUserError(result, 2, 'url must be an http:// or https:// address')
  })

  it('refuses a duplicate url with exit 1, naming its status and how to change it, and changes nothing', async () => {
    await seedTracker(home.path, [application({url: JOB, status: 'interviewing', notes: 'keep'})])
    const result = await cli(
      'apply',
      'HTTPS://EXAMPLE.ORG/jobs/1/',
      '--title',
      'Other',
      '--company',
      'B',
      '--source',
      'x',
    )
    expectUserError(result, 1, `already tracked as #1 ${JOB} (status: interviewing)`, 'Hint: jobagent status 1')
    expect(readTracker(home.path).applications).toEqual([
      expect.objectContaining({url: JOB, title: 'Backend Engineer', notes: 'keep'}),
    ])
  })

  it('reports a duplicate as a JSON error on stdout with --json', async () => {
    await seedTracker(home.path, [application({url: JOB})])
    const result = await cli('apply', ...APPLY, '--json')
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stdout)).toEqual({
      error: {
        code: 'conflict',
        message: `${JOB} is already tracked as #1 ${JOB} (status: applied)`,
        details: expect.any(Array),
      },
    })
  })
})

describe('jobagent status', () => {
  beforeEach(async () => {
    await seedTracker(home.path, [
      application({url: 'https://example.org/a', title: 'Saved One', status: 'saved'}),
      application({url: 'https://example.org/b', title: 'Applied One'}),
      application({url: JOB, title: 'Backend Engineer', notes: 'first notes'}),
    ])
  })

  it('lists every application as a table followed by the counts', async () => {
    const result = await cli('status')
    expect(result.code, result.stderr).toBe(0)
    const lines = result.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+APPLIED\s+TITLE\s+COMPANY\s+URL$/)
    expect(lines.slice(1, 4).map((line) => line.split(/\s{2,}/).slice(0, 2))).toEqual([
      ['3', 'applied'],
      ['2', 'applied'],
      ['1', 'saved'],
    ])
    expect(result.stdout).toContain('Saved One')
    expect(lines.at(-1)).toBe('Applications: 3 total, 2 applied, 1 pending')
  })

  it('filters by --status, keeping the counts of all applications', async () => {
    const result = await cli('status', '--status', 'saved')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('https://example.org/a')
    expect(result.stdout).not.toContain('https://example.org/b')
    expect(result.stdout).toContain('Applications: 3 total, 2 applied, 1 pending')
  })

  it('prints a JSON array of records with --json, the eight fields first and then the tracked ones', async () => {
    const result = await cli('status', '--json')
    expect(result.code, result.stderr).toBe(0)
    const records = JSON.parse(result.stdout) as Record<string, unknown>[]
    expect(records).toHaveLength(3)
    for (const record of records) {
      expect(Object.keys(record)).toEqual([
        ...APPLICATION_FIELDS,
        'id',
        'updated_at',
        'posting_closed_at',
        'salary_expected',
        'salary_offered',
        'referral',
        'removed_at',
        'next_action',
        'next_action_due',
        'documents',
        'contacts',
      ])
    }
  })

  it('changes a status, replacing the notes and keeping the old ones in the history, then shows it', async () => {
    const change = await cli('status', JOB, 'interviewing', '--notes', 'call on Tuesday')
    expect(change.code, change.stderr).toBe(0)
    expect(change.stdout).toBe(`#3 ${JOB}: applied -> interviewing (notes: call on Tuesday)\n`)
    const stored = readTracker(home.path)
    expect(stored.applications.find((row) => row.url === JOB)).toMatchObject({
      status: 'interviewing',
      notes: 'call on Tuesday',
    })
    expect(stored.history).toEqual([
      expect.objectContaining({old_status: 'applied', new_status: 'interviewing', old_notes: 'first notes'}),
    ])

    const shown = await cli('status', `${JOB}/`)
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stdout).toContain('status        interviewing')
    expect(shown.stdout).toContain('notes         call on Tuesday')
    expect(shown.stdout).toMatch(/History\n {2}\S+ {2}applied -> interviewing \(notes were: first notes\)/)

    const json = JSON.parse((await cli('status', JOB, '--json')).stdout)
    expect(json).toMatchObject({
      url: JOB,
      status: 'interviewing',
      history: [{old_notes: 'first notes', change: 'status'}],
    })
  })

  it('shows new notes given with the status the application has as a notes change, not applied -> applied', async () => {
    const change = await cli('status', JOB, 'applied', '--notes', 'second notes')
    expect(change.code, change.stderr).toBe(0)
    expect(change.stdout).toContain(': applied, notes changed (notes: second notes)')
    expect(change.stdout).not.toContain('applied -> applied')
    const shown = await cli('status', JOB)
    expect(shown.stdout).toMatch(/History\n {2}\S+ {2}notes changed \(notes were: first notes\)\n/)
    expect(shown.stdout).not.toContain('applied -> applied')
    const json = JSON.parse((await cli('status', JOB, '--json')).stdout)
    expect(json.history).toEqual([
      {
        changed_at: expect.any(String),
        old_status: 'applied',
        new_status: 'applied',
        old_notes: 'first notes',
        change: 'notes',
        details: null,
        summary: 'notes changed (notes were: first notes)',
      },
    ])
  })

  it('takes a URL left out of the command line from stdin, as every oclif command does', async () => {
    const result = await runCommandLine(['status', '--json'], {home: home.path, stdin: `${JOB}\n`})
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({url: JOB, status: 'applied', notes: 'first notes'})
  })

  it('prints the change with the previous status with --json', async () => {
    const result = await cli('status', JOB, 'offer', '--json')
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({
      application: {url: JOB, status: 'offer'},
      previous_status: 'applied',
    })
  })

  it('refuses an unknown status with exit 2, listing the allowed ones, and changes nothing', async () => {
    const result = await cli('status', JOB, 'hired')
    expectUserError(result, 2, 'unknown status "hired"', APPLICATION_STATUSES.join(', '))
    expect(readTracker(home.path).history).toEqual([])
    expectUserError(await cli('status', '--status', 'hired'), 2, 'saved, applied')
  })

  it('refuses --notes without a new status and --status with a url (exit 2), changing nothing', async () => {
    expectUserError(await cli('status', JOB, '--notes', 'lost?'), 2, '--notes goes with a new status')
    expectUserError(
      await cli('status', JOB, '--status', 'saved'),
      2,
      '--status, --search, --source and --since filter the list',
    )
    expect(readTracker(home.path).history).toEqual([])
  })

  it('reports an untracked url with exit 1', async () => {
    expectUserError(await cli('status', 'https://example.org/unknown'), 1, 'https://example.org/unknown is not tracked')
    const change = await cli('status', 'https://example.org/unknown', 'offer', '--json')
    expect(change.code).toBe(1)
    expect(JSON.parse(change.stdout).error.code).toBe('not_found')
  })
})

describe('a new home', () => {
  it('shows an empty tracker with zero counts', async () => {
    const result = await cli('status')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('No applications tracked yet')
    expect(result.stdout).toContain('Applications: 0 total, 0 applied, 0 pending')
    expect(JSON.parse((await cli('status', '--json')).stdout)).toEqual([])
  })
})
