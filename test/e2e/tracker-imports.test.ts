import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {ROOT, tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'
import {application, readTracker, seedTracker} from '../helpers/tracker.js'

const FIXTURES = join(ROOT, 'test/fixtures/imports')

let home: ReturnType<typeof tempDir>
const cli = (...args: string[]) => runCommandLine(args, {home: home.path})

beforeEach(() => {
  home = tempDir('jobagent-e2e-imports-')
})

afterEach(() => {
  home.cleanup()
})

describe('jobagent import of a directory', () => {
  it('asks for a file in it, for the tracker and for shipments', async () => {
    for (const args of [
      ['import', FIXTURES],
      ['shipment', 'import', '--metadata', FIXTURES],
    ]) {
      const result = await cli(...args)
      expect(result.code, args.join(' ')).toBe(1)
      expect(result.stderr).toBe(
        `Error: cannot read ${FIXTURES}: it is a directory\nHint: give the path of a file, such as one in ${FIXTURES}\n`,
      )
    }
  })
})

describe('jobagent import --from', () => {
  it('imports a Huntr export and a Teal export into one tracker', async () => {
    const huntr = join(FIXTURES, 'huntr-export.csv')
    const fromHuntr = await cli('import', '--from', 'huntr', huntr)
    expect(fromHuntr.code, fromHuntr.stderr).toBe(0)
    expect(fromHuntr.stdout).toBe('Imported 6 new, updated 0, left 0 unchanged.\n')

    const teal = join(FIXTURES, 'teal-export.csv')
    const fromTeal = await cli('import', teal, '--from', 'teal', '--json')
    expect(fromTeal.code, fromTeal.stderr).toBe(0)
    expect(JSON.parse(fromTeal.stdout)).toEqual({
      inserted: 8,
      updated: 0,
      unchanged: [],
      identical: 0,
      file: teal,
      encoding: 'utf-8',
    })

    const {applications, history} = readTracker(home.path)
    expect(applications).toHaveLength(14)
    expect(applications[0]).toMatchObject({
      title: 'Senior Backend Engineer',
      company: 'Acme GmbH',
      location: 'Berlin, Germany',
      url: 'https://jobs.example.org/acme/123',
      source: 'huntr',
      applied_date: '2026-03-14T00:00:00.000',
      status: 'saved',
      notes: 'Referral from Jan, ask about "remote" days',
      salary_expected: '€70,000 - €85,000',
    })
    expect(applications[1]).toMatchObject({applied_date: '2026-03-02T14:05:00.000', status: 'applied'})
    expect(applications.slice(6).map((row) => [row.source, row.company, row.status])).toEqual([
      ['teal', 'Stark Industries', 'saved'],
      ['teal', 'Wayne Enterprises', 'applied'],
      ['teal', 'Cyberdyne', 'interviewing'],
      ['teal', 'Tyrell Corp', 'offer'],
      ['teal', 'Soylent', 'accepted'],
      ['teal', 'Oscorp', 'withdrawn'],
      ['teal', 'Massive Dynamic', 'rejected'],
      ['teal', 'Aperture Science', 'ghosted'],
    ])
    // Teal gives no date: the import time, in the stored form.
    expect(applications[6]?.applied_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/)
    // A first import records no status change.
    expect(history).toEqual([])

    const status = await cli('status', '--status', 'interviewing', '--json')
    expect(
      JSON.parse(status.stdout)
        .map((row: {company: string}) => row.company)
        .sort(),
    ).toEqual(['Cyberdyne', 'Initech', 'Vandelay Industries'])
  })

  it('lists every bad row of an export with exit 2 and writes nothing', async () => {
    await seedTracker(home.path, [application({url: 'https://example.org/kept'})])
    const before = readTracker(home.path)
    const file = join(FIXTURES, 'huntr-bad-rows.csv')
    const result = await cli('import', '--from', 'huntr', file)
    expect(result.code, result.stderr).toBe(2)
    for (const fragment of [
      `${file}: 5 invalid row(s); nothing was imported`,
      'row 3, status: unknown stage "Daydreaming" in Huntr column "List"',
      `row 4, url: Huntr column "URL" is empty`,
      'row 5, applied_date: "31/12/2026" in Huntr column "Date Saved" is not a date',
      'row 6, company: company must not be empty',
      'row 7, status: unknown stage "Teleported"',
    ]) {
      expect(result.stderr).toContain(fragment)
    }
    expect(result.stderr).not.toContain('    at ')
    expect(readTracker(home.path)).toEqual(before)
  })

  it('refuses a file that is not the named export, and an unknown format', async () => {
    const own = join(FIXTURES, 'teal-export.csv')
    const wrong = await cli('import', '--from', 'huntr', own)
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain(`${own} is not a Huntr CSV export`)
    expect(wrong.stderr).toContain('missing column "Employer"')

    const unknown = await cli('import', '--from', 'trello', own)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('jobagent, huntr, teal')
    expect(readTracker(home.path).applications).toEqual([])
  })

  it('suggests --from for an export imported without it, instead of listing its columns', async () => {
    const huntr = join(FIXTURES, 'huntr-export.csv')
    const result = await cli('import', huntr)
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      `Error: ${huntr} is not a jobagent applications CSV\nHint: this looks like a Huntr export: add --from huntr\n`,
    )
    expect(readTracker(home.path).applications).toEqual([])
  })

  it('names the encoding of an export that is not UTF-8', async () => {
    const file = join(home.path, 'huntr-windows.csv')
    writeFileSync(
      file,
      Buffer.from(
        'Employer,Job Title,List,URL\r\nM\u00fcller GmbH,Engineer,Applied,https://example.org/1\r\n',
        'latin1',
      ),
    )
    const result = await cli('import', '--from', 'huntr', file)
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe(`Read ${file} as Windows-1252.\nImported 1 new, updated 0, left 0 unchanged.\n`)
    expect(readTracker(home.path).applications[0]).toMatchObject({company: 'M\u00fcller GmbH'})
  })
})
