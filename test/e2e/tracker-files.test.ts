import {mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {type CliResult, runCli, tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'
import {application, readTracker, seedTracker} from '../helpers/tracker.js'

let home: ReturnType<typeof tempDir>
const cli = (...args: string[]) => runCommandLine(args, {home: home.path})

function expectUserError(result: CliResult, code: number, ...fragments: string[]): void {
  expect(result.code, result.stderr).toBe(code)
  for (const fragment of fragments) expect(result.stderr).toContain(fragment)
  expect(result.stderr).not.toContain('    at ')
}

const HEADER = 'title,company,location,url,source,applied_date,status,notes'

beforeEach(() => {
  home = tempDir('jobagent-e2e-files-')
})

afterEach(() => {
  home.cleanup()
})

describe('jobagent export-csv', () => {
  beforeEach(async () => {
    await seedTracker(home.path, [
      application({url: 'https://example.org/a', title: '=HYPERLINK("http://evil")', notes: 'line 1\nline, "2"'}),
      application({url: 'https://example.org/b', company: '@Acme', status: 'saved'}),
    ])
  })

  it('writes a timestamped file in the data dir by default and prints its path', async () => {
    const result = await cli('export-csv')
    expect(result.code, result.stderr).toBe(0)
    const path = result.stdout.trim()
    expect(path).toMatch(
      new RegExp(`^${home.path}/applications-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}\\.csv$`),
    )
    const csv = readFileSync(path, 'utf8')
    expect(csv.split('\r\n')[0]).toBe(`${HEADER},id,salary_expected,salary_offered,referral,contacts`)
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`)
    expect(csv).toContain(`"line 1\nline, ""2"""`)
    expect(csv).toContain(",'@Acme,")
    expect(csv.endsWith('\r\n')).toBe(true)
    // The atomic write leaves no temporary file behind.
    expect(readdirSync(home.path).filter((name) => name.startsWith('applications-'))).toHaveLength(1)
  })

  it('writes to --output, without the formula guard with --raw, and reports path and count with --json', async () => {
    const output = join(home.path, 'out.csv')
    const result = await cli('export-csv', '--output', output, '--raw', '--json')
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({path: output, count: 2})
    const csv = readFileSync(output, 'utf8')
    expect(csv).toContain(`"=HYPERLINK(""http://evil"")"`)
    expect(csv).toContain(',@Acme,')
  })

  it('names an unwritable path and exits 1', async () => {
    const output = join(home.path, 'missing-dir', 'out.csv')
    expectUserError(await cli('export-csv', '-o', output), 1, `cannot write ${output}`)
  })

  it('writes the timestamped file inside a directory given as --output', async () => {
    const dir = join(home.path, 'exports')
    mkdirSync(dir)
    const result = await cli('export-csv', '-o', dir, '--json')
    expect(result.code, result.stderr).toBe(0)
    const {path} = JSON.parse(result.stdout) as {path: string}
    expect(path).toMatch(new RegExp(`^${dir}/applications-\\d{4}-\\d{2}-\\d{2}T[\\d-]+\\.csv$`))
    expect(readFileSync(path, 'utf8').split('\r\n')[0]).toBe(
      `${HEADER},id,salary_expected,salary_offered,referral,contacts`,
    )
  })
})

describe('jobagent import', () => {
  const records = [
    application({url: 'https://example.org/a', status: 'offer', applied_date: '2025-03-04T05:06:07.890', notes: 'n'}),
    application({url: 'https://example.org/b', title: 'Second', status: 'saved'}),
  ]

  it('imports a JSON array of records and a CSV export, and reports what it did', async () => {
    const json = join(home.path, 'apps.json')
    writeFileSync(json, JSON.stringify(records))
    const result = await cli('import', json)
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe('Imported 2 new, updated 0, left 0 unchanged.\n')
    expect(readTracker(home.path).applications).toEqual([
      expect.objectContaining({url: 'https://example.org/a', status: 'offer', applied_date: '2025-03-04T05:06:07.890'}),
      expect.objectContaining({url: 'https://example.org/b', status: 'saved'}),
    ])

    const csv = join(home.path, 'more.csv')
    writeFileSync(csv, `${HEADER}\r\nThird,Initech,,https://example.org/c,manual,,,"multi\r\nline"\r\n`)
    const fromCsv = await cli('import', csv, '--json')
    expect(fromCsv.code, fromCsv.stderr).toBe(0)
    expect(JSON.parse(fromCsv.stdout)).toEqual({
      inserted: 1,
      updated: 0,
      unchanged: [],
      identical: 0,
      file: csv,
      encoding: 'utf-8',
    })
    expect(readTracker(home.path).applications.at(-1)).toMatchObject({status: 'applied', notes: 'multi\r\nline'})
  })

  it('round-trips status --json and export-csv output through import into a new home', async () => {
    await seedTracker(home.path, records)
    const exported = (await cli('status', '--json')).stdout
    const csvPath = (await cli('export-csv')).stdout.trim()
    const other = tempDir('jobagent-e2e-files-')
    try {
      const jsonFile = join(other.path, 'apps.json')
      writeFileSync(jsonFile, exported)
      expect((await runCommandLine(['import', jsonFile], {home: other.path})).code).toBe(0)
      const fromJson = readTracker(other.path).applications
      const strip = (rows: Record<string, unknown>[]) =>
        rows
          .map(({id: _id, updated_at: _at, ...rest}) => rest)
          .sort((x, y) => String(x.url).localeCompare(String(y.url)))
      expect(strip(fromJson)).toEqual(strip(readTracker(home.path).applications))

      const third = tempDir('jobagent-e2e-files-')
      try {
        expect((await runCommandLine(['import', csvPath], {home: third.path})).code).toBe(0)
        expect(strip(readTracker(third.path).applications)).toEqual(strip(readTracker(home.path).applications))
      } finally {
        third.cleanup()
      }
    } finally {
      other.cleanup()
    }
  })

  it('refuses a file with invalid rows, listing their numbers, and writes nothing', async () => {
    await seedTracker(home.path, [application({url: 'https://example.org/kept'})])
    const before = readTracker(home.path)
    const json = join(home.path, 'bad.json')
    writeFileSync(
      json,
      JSON.stringify([
        records[0],
        {...records[1], url: 'not a url'},
        {title: 'No company', url: 'https://example.org/x'},
      ]),
    )
    const result = await cli('import', json)
    expectUserError(result, 2, `${json}: 2 invalid row(s); nothing was imported`, 'row 2, url:', 'row 3, company:')
    expect(readTracker(home.path)).toEqual(before)

    const csv = join(home.path, 'bad.csv')
    writeFileSync(
      csv,
      `${HEADER}\nA,B,,https://example.org/1,x,,applied,"two\nlines"\nC,D,,https://example.org/2,x,,nope,\n`,
    )
    expectUserError(await cli('import', csv), 2, 'row 4, status: unknown status "nope"')
    expect(readTracker(home.path)).toEqual(before)
  })

  it('brings applied_date into the local form: zones converted (TZ=Europe/Berlin), a date alone at midnight', async () => {
    // TZ is the process's: the built CLI in its own process reads it at start.
    const berlin = (...args: string[]) => runCli(args, {home: home.path, env: {TZ: 'Europe/Berlin'}})
    const dates: [string, string][] = [
      ['2026-11-22T04:17:33.123Z', '2026-11-22T05:17:33.123'], // CET, UTC+1
      ['2026-07-01T10:00:00+02:00', '2026-07-01T10:00:00.000'], // CEST, UTC+2
      ['2026-11-22T05:17:33.123+05:30', '2026-11-22T00:47:33.123'], // back across midnight
      ['2026-11-22T05:17:33-0800', '2026-11-22T14:17:33.000'],
      ['2026-11-22', '2026-11-22T00:00:00.000'],
      ['2026-11-22 07:08', '2026-11-22T07:08:00.000'],
      ['2026-11-22T07:08:09.123456', '2026-11-22T07:08:09.123'],
    ]
    const json = join(home.path, 'dates.json')
    writeFileSync(
      json,
      JSON.stringify(
        dates.map(([given], index) => application({url: `https://example.org/j${index}`, applied_date: given})),
      ),
    )
    const fromJson = await berlin('import', json)
    expect(fromJson.code, fromJson.stderr).toBe(0)
    const csv = join(home.path, 'dates.csv')
    writeFileSync(
      csv,
      `${HEADER}\n${dates.map(([given], index) => `T,C,,https://example.org/c${index},x,${given},,`).join('\n')}\n`,
    )
    const fromCsv = await berlin('import', csv)
    expect(fromCsv.code, fromCsv.stderr).toBe(0)
    const stored = new Map(readTracker(home.path).applications.map((row) => [row.url, row.applied_date]))
    dates.forEach(([given, local], index) => {
      expect(stored.get(`https://example.org/j${index}`), `JSON ${given}`).toBe(local)
      expect(stored.get(`https://example.org/c${index}`), `CSV ${given}`).toBe(local)
    })
  })

  it('refuses impossible dates and times in applied_date, naming row and field, and writes nothing', async () => {
    await seedTracker(home.path, [application({url: 'https://example.org/kept'})])
    const before = readTracker(home.path)
    const impossible = ['2026-02-30', '2026-13-01', '2026-11-22T25:00', '2026-11-22T10:60:00', '2026-11-22T10:00+24:00']
    const json = join(home.path, 'impossible.json')
    writeFileSync(
      json,
      JSON.stringify([
        application({url: 'https://example.org/ok', applied_date: '2028-02-29'}),
        ...impossible.map((given, index) => application({url: `https://example.org/i${index}`, applied_date: given})),
      ]),
    )
    const result = await cli('import', json)
    expectUserError(
      result,
      2,
      '5 invalid row(s); nothing was imported',
      'row 2, applied_date: applied_date "2026-02-30"',
    )
    for (const row of [3, 4, 5, 6]) expect(result.stderr).toContain(`row ${row}, applied_date:`)
    expect(result.stderr).not.toContain('row 1,')

    const csv = join(home.path, 'impossible.csv')
    writeFileSync(
      csv,
      `${HEADER}\nT,C,,https://example.org/ok,x,2026-02-28,,\nT,C,,https://example.org/x,x,2026-02-30,,\n`,
    )
    expectUserError(await cli('import', csv), 2, '1 invalid row(s)', 'row 3, applied_date: applied_date "2026-02-30"')
    expect(readTracker(home.path)).toEqual(before)
  })

  it('lists broken CSV rows (cell count, quoting) with the rows failing field checks, by line, and writes nothing', async () => {
    await seedTracker(home.path, [application({url: 'https://example.org/kept'})])
    const before = readTracker(home.path)
    const csv = join(home.path, 'broken.csv')
    writeFileSync(
      csv,
      [
        HEADER,
        'A,B,,https://example.org/1,x,,applied,',
        'short,row',
        'C,D,,not-a-url,x,,applied,',
        'E,"F"G,,https://example.org/3,x,,applied,',
        'H,I,,https://example.org/4,x,,applied,"open',
        'J,K,,https://example.org/5,x,,nope,',
        '',
      ].join('\r\n'),
    )
    const result = await cli('import', csv)
    expectUserError(
      result,
      2,
      '5 invalid row(s); nothing was imported',
      'row 3: has 2 cell(s) where the header has 8',
      'row 4, url:',
      'row 5: a quoted cell has text after its closing quote',
      'row 6: a quoted cell is never closed',
      'row 7, status: unknown status "nope"',
    )
    expect(readTracker(home.path)).toEqual(before)
  })

  it('reports duplicate urls within the file by row', async () => {
    const json = join(home.path, 'dupes.json')
    writeFileSync(json, JSON.stringify([records[0], records[1], {...records[0], url: 'https://EXAMPLE.org/a/'}]))
    expectUserError(await cli('import', json), 2, 'row 3, url: duplicate of row 1')
  })

  it('leaves already tracked applications unchanged and lists them, or overwrites them with --update', async () => {
    await seedTracker(home.path, [application({url: 'https://example.org/a', status: 'rejected', notes: 'mine'})])
    const json = join(home.path, 'apps.json')
    writeFileSync(json, JSON.stringify(records))
    const plain = await cli('import', json)
    expect(plain.code, plain.stderr).toBe(0)
    expect(plain.stdout).toBe(
      'Imported 1 new, updated 0, left 1 unchanged.\n  already tracked (use --update to overwrite): https://example.org/a\n',
    )
    expect(readTracker(home.path).applications[0]).toMatchObject({status: 'rejected', notes: 'mine'})

    const update = await cli('import', json, '--update')
    expect(update.code, update.stderr).toBe(0)
    // b was imported just before, exactly as the file has it: nothing to overwrite.
    expect(update.stdout).toBe('Imported 0 new, updated 1, left 0 unchanged, 1 already as in the file.\n')
    const stored = readTracker(home.path)
    expect(stored.applications[0]).toMatchObject({status: 'offer', notes: 'n'})
    expect(stored.history).toEqual([
      expect.objectContaining({old_status: 'rejected', new_status: 'offer', old_notes: 'mine'}),
    ])
  })

  it('names a missing file (exit 1) and a malformed one (exit 2)', async () => {
    const missing = join(home.path, 'nope.json')
    const notThere = await cli('import', missing)
    expectUserError(
      notThere,
      1,
      `Error: cannot read ${missing}: the file does not exist\nHint: check the name of the file`,
    )
    expect(notThere.stderr).not.toContain('its directory must exist')
    const broken = join(home.path, 'broken.json')
    writeFileSync(broken, '[{"title": "x",')
    expectUserError(await cli('import', broken), 2, `${broken} is not valid JSON`)
    const object = join(home.path, 'object.json')
    writeFileSync(object, '{"title": "x"}')
    expectUserError(await cli('import', object), 2, 'must hold a JSON array')
    const wrongColumns = join(home.path, 'wrong.csv')
    writeFileSync(wrongColumns, 'name,link\nx,https://example.org\n')
    expectUserError(await cli('import', wrongColumns), 2, 'unknown column "name"', 'missing column "url"')
  })
})
