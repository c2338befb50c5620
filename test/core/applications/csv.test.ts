import {describe, expect, it} from 'vitest'
import {APPLICATION_FIELDS} from '../../../src/core/applications/application.js'
import {applicationsToCsv, type ExportedApplication, parseApplicationsCsv} from '../../../src/core/applications/csv.js'
import {picked} from '../../../src/core/defined-fields.js'
import {ValidationError} from '../../../src/core/errors.js'
import {memoryTracker} from '../../helpers/tracker.js'

const HEADER = 'title,company,location,url,source,applied_date,status,notes'
const EXPORT_HEADER = `${HEADER},id,salary_expected,salary_offered,referral,contacts`

function record(overrides: Partial<ExportedApplication> = {}): ExportedApplication {
  return {
    id: 1,
    salary_expected: '',
    salary_offered: '',
    referral: '',
    contacts: [],
    title: 'Backend Engineer',
    company: 'Acme',
    location: 'Berlin',
    url: 'https://example.org/jobs/1',
    source: 'remoteok',
    applied_date: '2026-11-22T05:17:33.123',
    status: 'applied',
    notes: '',
    ...overrides,
  }
}

function parseError(text: string): ValidationError {
  try {
    parseApplicationsCsv(text, 'apps.csv')
  } catch (error) {
    return error as ValidationError
  }
  throw new Error('expected the CSV to be refused')
}

describe('writing the CSV export', () => {
  it('writes a header of the eight columns in order, then id, salary lines, referral and contacts, and CRLF line ends', () => {
    const csv = applicationsToCsv([record()])
    expect(csv).toBe(
      `${EXPORT_HEADER}\r\nBackend Engineer,Acme,Berlin,https://example.org/jobs/1,remoteok,2026-11-22T05:17:33.123,applied,,1,,,,\r\n`,
    )
  })

  it('writes the contacts as the JSON text of their fields, guarded like every cell', () => {
    const ann = {name: '=Ann', role: 'recruiter', reach: 'ann@example.org', notes: 'met at\nthe fair'}
    const [parsed] = parseRows(applicationsToCsv([record({salary_expected: '-5%', contacts: [ann]})]))
    expect(parsed?.salary_expected).toBe("'-5%")
    expect(JSON.parse(parsed?.contacts ?? '')).toEqual([ann])
  })

  it('writes only the header when nothing is tracked', () => {
    expect(applicationsToCsv([])).toBe(`${EXPORT_HEADER}\r\n`)
  })

  it('quotes cells with commas, quotes and newlines as RFC 4180 says', () => {
    const csv = applicationsToCsv([
      record({title: 'Engineer, Platform', company: 'The "Best" Co', notes: 'line 1\nline 2'}),
    ])
    expect(csv.split('\r\n')[1]).toBe(
      '"Engineer, Platform","The ""Best"" Co",Berlin,https://example.org/jobs/1,remoteok,2026-11-22T05:17:33.123,applied,"line 1\nline 2",1,,,,',
    )
  })

  it.each([
    ['=SUM(A1:A2)', "'=SUM(A1:A2)"],
    ['+49 30 1234', "'+49 30 1234"],
    ['-5', "'-5"],
    ['@cmd', "'@cmd"],
    ['\tindent', "'\tindent"],
    ['\rreturn', "'\rreturn"],
    ["'=already quoted", "''=already quoted"],
    ['a = b', 'a = b'],
    ["it's fine", "it's fine"],
  ])('guards the cell %j against formula injection as %j', (notes, expected) => {
    const [parsed] = parseRows(applicationsToCsv([record({notes})]))
    expect(parsed?.notes).toBe(expected)
  })

  it('leaves formula cells as they are with raw', () => {
    const [parsed] = parseRows(applicationsToCsv([record({title: '=HYPERLINK("x")', notes: '@me'})], {raw: true}))
    expect(parsed).toMatchObject({title: '=HYPERLINK("x")', notes: '@me'})
  })
})

/** Reads the CSV back without the import's unguarding, as a spreadsheet would see it. */
function parseRows(csv: string): Record<string, string>[] {
  const lines: Record<string, string>[] = []
  const cells: string[] = []
  let cell = ''
  let quoted = false
  for (let index = 0; index < csv.length; index++) {
    const char = csv[index]
    if (quoted) {
      if (char === '"' && csv[index + 1] === '"') {
        cell += '"'
        index++
      } else if (char === '"') quoted = false
      else cell += char
    } else if (char === '"') quoted = true
    else if (char === ',') {
      cells.push(cell)
      cell = ''
    } else if (char === '\r' && csv[index + 1] === '\n') {
      cells.push(cell)
      cell = ''
      lines.push(Object.fromEntries(EXPORT_HEADER.split(',').map((name, column) => [name, cells[column] ?? ''])))
      cells.length = 0
      index++
    } else cell += char
  }
  return lines.slice(1)
}

describe('reading an applications CSV', () => {
  it('round-trips an export through the import without losing anything', async () => {
    const source = memoryTracker()
    const tricky = [
      record({url: 'https://example.org/1', title: '=cmd|" /C calc"!A0', notes: 'first line\r\nsecond, "quoted" line'}),
      record({url: 'https://example.org/2', company: '+Plus GmbH', location: '', notes: '-minus'}),
      record({url: 'https://example.org/3', notes: "'=already quoted", status: 'saved'}),
      record({url: 'https://example.org/4', notes: '\ttab first\nand\nmore lines', status: 'ghosted'}),
      record({url: 'https://example.org/5', title: 'Ünïcödé 🚀', notes: '@handle'}),
    ]
    const rows = parseApplicationsCsv(applicationsToCsv(tricky), 'export.csv')
    await source.service.import(rows, {update: false})
    const {applications} = await source.service.list()
    const byUrl = new Map(applications.map((tracked) => [tracked.url, picked(tracked, APPLICATION_FIELDS)]))
    for (const original of tricky) expect(byUrl.get(original.url)).toEqual(picked(original, APPLICATION_FIELDS))
    source.db.close()
  })

  it('numbers rows by the line they start on, counting the lines of multi-line cells', () => {
    const csv = [
      HEADER,
      'A,Acme,,https://example.org/a,manual,,applied,"two',
      'lines"',
      '',
      'B,Acme,,https://example.org/b,manual,,applied,',
    ].join('\r\n')
    expect([...parseApplicationsCsv(csv, 'apps.csv')].map((row) => row.row)).toEqual([2, 5])
  })

  it('accepts a file with only the required columns, in any order, with a byte order mark', () => {
    const rows = parseApplicationsCsv(
      '\uFEFFurl,source,company,title\nhttps://example.org/a,manual,Acme,Dev\n',
      'a.csv',
    )
    expect([...rows]).toEqual([
      {row: 2, value: {url: 'https://example.org/a', source: 'manual', company: 'Acme', title: 'Dev'}},
    ])
  })

  it('names unknown and missing columns', () => {
    const error = parseError('title,company,link,source,salary\nDev,Acme,https://example.org,manual,1\n')
    expect(error).toBeInstanceOf(ValidationError)
    expect(error.message).toBe('apps.csv is not a valid applications CSV')
    expect(error.details).toEqual(
      expect.arrayContaining([
        {row: 1, field: 'link', message: 'unknown column "link"'},
        {row: 1, field: 'salary', message: 'unknown column "salary"'},
        {row: 1, field: 'url', message: 'missing column "url"'},
      ]),
    )
    expect(error.hint).toContain(HEADER)
  })

  it('marks a row with the wrong number of cells or broken quoting with its problem and line', () => {
    const rows = parseApplicationsCsv(
      `${HEADER}\nA,Acme,,https://example.org/a,manual,,applied,\nB,Acme\nC,"Ac"me,,https://example.org/c,x,,,\nD,E\n`,
      'apps.csv',
    )
    expect([...rows].map(({row, problems}) => ({row, problems}))).toEqual([
      {row: 2, problems: undefined},
      {row: 3, problems: [{row: 3, message: 'has 2 cell(s) where the header has 8'}]},
      {row: 4, problems: [{row: 4, message: 'a quoted cell has text after its closing quote'}]},
      // Reading goes on at the next line rather than taking the rest of the file into the broken cell.
      {row: 5, problems: [{row: 5, message: 'has 2 cell(s) where the header has 8'}]},
    ])
  })

  it('names a repeated column', () => {
    expect(parseError('title,company,url,source,title\n').details).toEqual([
      {row: 1, field: 'title', message: 'column "title" appears more than once'},
    ])
  })

  it('lists every invalid row of a CSV import, structural and field errors alike, and writes nothing', async () => {
    const tracker = memoryTracker()
    await tracker.service.record({title: 'Kept', company: 'Acme', url: 'https://example.org/kept', source: 'x'})
    const csv = [
      HEADER,
      'Good,Acme,,https://example.org/good,manual,,applied,',
      'Short,Acme', // line 3: too few cells
      ',Acme,,https://example.org/no-title,manual,,applied,', // line 4: field error
      'Long,Acme,,https://example.org/long,manual,,applied,,extra', // line 5: too many cells
      'Multi,Acme,,https://example.org/multi,manual,,applied,"one',
      'two"', // lines 6-7: a valid multi-line cell
      'Bad,Acme,,https://example.org/bad,manual,,nope,', // line 8: field error
      'Open,Acme,,https://example.org/open,manual,,applied,"never closed', // line 9: runs to the end
      'Next,Acme,,https://example.org/next,manual,,applied,',
      'Last,Acme,,https://example.org/last,manual,,later,', // line 11: still checked
    ].join('\n')
    const error = await tracker.service.import(parseApplicationsCsv(csv, 'apps.csv'), {update: false}).then(
      () => undefined,
      (caught: unknown) => caught as ValidationError,
    )
    expect(error).toBeInstanceOf(ValidationError)
    expect(error?.message).toBe('6 invalid row(s); nothing was imported')
    expect(error?.details).toEqual([
      {row: 3, message: 'has 2 cell(s) where the header has 8'},
      {row: 4, field: 'title', message: expect.stringContaining('title')},
      {row: 5, message: 'has 9 cell(s) where the header has 8'},
      {row: 8, field: 'status', message: expect.stringContaining('unknown status "nope"')},
      {row: 9, message: 'a quoted cell is never closed'},
      {row: 11, field: 'status', message: expect.stringContaining('unknown status "later"')},
    ])
    expect((await tracker.service.list()).applications.map((application) => application.url)).toEqual([
      'https://example.org/kept',
    ])
    tracker.db.close()
  })
})

describe('reading a large CSV with broken quoting', () => {
  it('names every broken row of 20,000 in linear time rather than rereading the rest of the file for each', async () => {
    // Given 20,000 rows where every other has text after a closing quote and every 1,000th a quote never closed
    const lines = [HEADER]
    const broken: number[] = []
    for (let index = 0; index < 20_000; index++) {
      const line = lines.length + 1
      if (index % 1000 === 999) {
        lines.push(`Open,Acme,,https://example.org/open/${index},manual,,applied,"never closed`)
        broken.push(line)
      } else if (index % 2 === 1) {
        lines.push(`Role,"Ac"me,,https://example.org/bad/${index},manual,,applied,`)
        broken.push(line)
      } else {
        lines.push(`Role,Acme,,https://example.org/good/${index},manual,,applied,a note`)
      }
    }
    const tracker = memoryTracker()
    // When it is imported
    const error = await tracker.service.import(parseApplicationsCsv(lines.join('\n'), 'big.csv'), {update: false}).then(
      () => undefined,
      (caught: unknown) => caught as ValidationError,
    )
    // Then it is refused, naming each broken line, within the test's timeout: rereading the rest of the file for each
    // broken row took minutes, reading it once takes seconds even on a loaded machine
    expect(error).toBeInstanceOf(ValidationError)
    expect(error?.details?.map((detail) => detail.row)).toEqual(broken)
    expect(error?.details?.[0]).toEqual({row: 3, message: 'a quoted cell has text after its closing quote'})
    expect(error?.details?.find((detail) => detail.row === 1001)?.message).toMatch(/^a quoted cell /)
    tracker.db.close()
  })
})

describe('reading a CSV a piece at a time', () => {
  /** The text cut into pieces of `size` characters, as a file read a part at a time gives it. */
  function* piecesOf(text: string, size: number): Generator<string> {
    for (let start = 0; start < text.length; start += size) yield text.slice(start, start + size)
  }

  const TRICKY = [
    `\uFEFF${HEADER}`,
    'A,"Acme, Inc.",,https://example.org/a,manual,,applied,"two',
    'lines with ""quotes"""',
    '',
    'B,Acme,,https://example.org/b,manual,,applied,',
    'C,"Ac"me,,https://example.org/c,manual,,applied,',
    'D,Acme',
    'E,Acme,,https://example.org/e,manual,,applied,"never closed',
    'F,Acme,,https://example.org/f,manual,,applied,Zoë 🚀',
    'G,Acme,,https://example.org/g,manual,,applied,',
  ]

  it.each(['\r\n', '\n'])(
    'gives the rows, lines and problems it gives for the whole text, for pieces of any size (%j)',
    (newline) => {
      const text = TRICKY.join(newline)
      const whole = [...parseApplicationsCsv(text, 'apps.csv')]
      expect(whole.map((row) => row.row)).toEqual([2, 5, 6, 7, 8, 9, 10])
      for (const size of [1, 2, 3, 7, 64, 4096]) {
        expect([...parseApplicationsCsv(piecesOf(text, size), 'apps.csv')]).toEqual(whole)
      }
    },
  )

  it('names a quote never closed before 9 MB of rows, longer than any span read at once, and reads every row after it', () => {
    const note = 'x'.repeat(100)
    const rows = Array.from(
      {length: 70_000},
      (_, index) => `R,Acme,,https://example.org/${index},manual,,applied,${note}`,
    )
    const text = [HEADER, 'Open,Acme,,https://example.org/open,manual,,applied,"never closed', ...rows].join('\n')
    expect(text.length).toBeGreaterThan(9 << 20)
    const read = [...parseApplicationsCsv(piecesOf(text, 1 << 20), 'apps.csv')]
    expect(read[0]).toEqual({row: 2, value: undefined, problems: [{row: 2, message: 'a quoted cell is never closed'}]})
    expect(read).toHaveLength(rows.length + 1)
    expect(read.filter((row) => row.problems)).toHaveLength(1)
    expect(read.at(-1)?.row).toBe(rows.length + 2)
  })
})
