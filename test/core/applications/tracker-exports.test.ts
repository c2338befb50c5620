import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {parseApplicationsCsv} from '../../../src/core/applications/csv.js'
import {
  parseTrackerExport,
  savedDate,
  stageStatus,
  trackerExportHint,
} from '../../../src/core/applications/tracker-exports.js'
import {ValidationError} from '../../../src/core/errors.js'
import {memoryTracker, type Tracker} from '../../helpers/tracker.js'

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../../fixtures/imports', name), 'utf8')

let tracker: Tracker
beforeEach(() => {
  tracker = memoryTracker()
})
afterEach(() => {
  tracker.db.close()
})

function stored(): Record<string, unknown>[] {
  return tracker.db
    .prepare(
      `SELECT title, company, location, url, source, applied_date, status, notes, salary_expected FROM applications
       ORDER BY id`,
    )
    .all() as Record<string, unknown>[]
}

async function importExport(format: 'huntr' | 'teal', text: string, update = false) {
  return tracker.service.import(parseTrackerExport(format, text, `${format}.csv`), {update})
}

async function importError(format: 'huntr' | 'teal', text: string): Promise<ValidationError> {
  const error = await importExport(format, text).catch((caught: unknown) => caught)
  expect(error).toBeInstanceOf(ValidationError)
  return error as ValidationError
}

describe('importing a Huntr export', () => {
  it('stores every row with its stage, saved date, location and salary, whatever the column order', async () => {
    expect(await importExport('huntr', fixture('huntr-export.csv'))).toEqual({
      inserted: 6,
      updated: 0,
      unchanged: [],
      identical: 0,
    })
    const huntr = {source: 'huntr', salary_expected: ''}
    expect(stored()).toEqual([
      {
        ...huntr,
        title: 'Senior Backend Engineer',
        company: 'Acme GmbH',
        location: 'Berlin, Germany',
        url: 'https://jobs.example.org/acme/123',
        applied_date: '2026-03-14T00:00:00.000',
        status: 'saved',
        notes: 'Referral from Jan, ask about "remote" days',
        salary_expected: '€70,000 - €85,000',
      },
      {
        ...huntr,
        title: 'Platform Engineer',
        company: 'Globex',
        location: 'Remote',
        url: 'https://boards.example.org/globex/jobs/9',
        applied_date: '2026-03-02T14:05:00.000',
        status: 'applied',
        notes: '',
      },
      {
        ...huntr,
        title: 'Staff Engineer',
        company: 'Initech',
        location: 'New York, NY',
        url: 'https://careers.example.org/initech/staff',
        applied_date: '2026-03-05T00:00:00.000',
        status: 'interviewing',
        notes: 'Recruiter: Pat\r\nSecond round next week',
        salary_expected: '$180k',
      },
      {
        ...huntr,
        title: 'Site Reliability Engineer',
        company: 'Umbrella Corp',
        location: '',
        url: 'https://umbrella.example.org/jobs/sre',
        applied_date: '2026-01-20T09:30:00.000',
        status: 'offer',
        notes: '',
      },
      {
        ...huntr,
        title: 'Frontend Engineer',
        company: 'Hooli',
        location: 'Palo Alto',
        url: 'https://hooli.example.org/jobs/fe-1',
        applied_date: '2026-02-12T00:00:00.000',
        status: 'rejected',
        notes: 'No feedback',
      },
      {
        ...huntr,
        title: 'Data Engineer',
        company: 'Vandelay Industries',
        location: 'Remote (EU)',
        url: 'https://vandelay.example.org/jobs/42',
        // No saved date: the import time, as for jobagent's own files.
        applied_date: '2026-11-22T05:17:33.123',
        status: 'interviewing',
        notes: '',
      },
    ])
  })

  it('lists every bad row at once, each problem in the export words, and imports nothing', async () => {
    const error = await importError('huntr', fixture('huntr-bad-rows.csv'))
    expect(error.message).toBe('5 invalid row(s); nothing was imported')
    expect(error.details).toEqual([
      {
        row: 3,
        field: 'status',
        message: 'unknown stage "Daydreaming" in Huntr column "List"; see "jobagent import --help" for the stages',
      },
      {row: 4, field: 'url', message: `Huntr column "URL" is empty; the job's URL identifies the application`},
      {
        row: 5,
        field: 'applied_date',
        message:
          '"31/12/2026" in Huntr column "Date Saved" is not a date; use e.g. 2026-03-14, 3/14/2026 (month first) or Mar 14, 2026',
      },
      {row: 6, field: 'company', message: 'company must not be empty'},
      expect.objectContaining({row: 7, field: 'status', message: expect.stringContaining('"Teleported"')}),
      expect.objectContaining({row: 7, field: 'url'}),
      expect.objectContaining({row: 7, field: 'applied_date', message: expect.stringContaining('"not a date"')}),
    ])
    expect(stored()).toEqual([])
  })

  it('refuses a file without the columns it needs, naming them', async () => {
    const error = await importError('huntr', 'Employer,Job Title,Notes,Notes\nAcme,Engineer,a,b\n')
    expect(error.message).toBe('huntr.csv is not a Huntr CSV export')
    expect(error.details).toEqual([
      {row: 1, field: 'List', message: 'missing column "List"'},
      {row: 1, field: 'URL', message: 'missing column "URL"'},
      {row: 1, field: 'Notes', message: 'column "Notes" appears more than once'},
    ])
    expect(error.hint).toBe('a Huntr export has the columns Employer, Job Title, List, URL (in any order)')
  })

  it('reports a row with too few cells together with the others', async () => {
    const error = await importError('huntr', 'employer,job title,list,url\nAcme,Engineer,Nope,https://e.org/1\nAcme\n')
    expect(error.details).toEqual([
      expect.objectContaining({row: 2, field: 'status'}),
      {row: 3, message: 'has 1 cell(s) where the header has 4'},
    ])
  })
})

describe('importing a Teal export', () => {
  it('stores every row with the import time, its status, location and salary', async () => {
    expect(await importExport('teal', fixture('teal-export.csv'))).toEqual({
      inserted: 8,
      updated: 0,
      unchanged: [],
      identical: 0,
    })
    const rows = stored()
    expect(rows.map((row) => [row.company, row.status])).toEqual([
      ['Stark Industries', 'saved'],
      ['Wayne Enterprises', 'applied'],
      ['Cyberdyne', 'interviewing'],
      ['Tyrell Corp', 'offer'],
      ['Soylent', 'accepted'],
      ['Oscorp', 'withdrawn'],
      ['Massive Dynamic', 'rejected'],
      ['Aperture Science', 'ghosted'],
    ])
    expect(new Set(rows.map((row) => row.applied_date))).toEqual(new Set(['2026-11-22T05:17:33.123']))
    expect(new Set(rows.map((row) => row.source))).toEqual(new Set(['teal']))
    expect(rows[0]).toEqual({
      title: 'Principal Engineer',
      company: 'Stark Industries',
      location: 'Malibu, CA',
      url: 'https://stark.example.org/careers/principal',
      source: 'teal',
      applied_date: '2026-11-22T05:17:33.123',
      status: 'saved',
      notes: '',
      salary_expected: '$200,000 - $240,000',
    })
    expect(rows[2]).toMatchObject({location: 'Remote', notes: '', salary_expected: '€90k, plus bonus'})
  })

  it('leaves tracked applications as they are when the export says nothing new, with --update or without', async () => {
    const teal = fixture('teal-export.csv')
    await importExport('teal', teal)
    expect(await importExport('teal', teal)).toEqual({inserted: 0, updated: 0, unchanged: [], identical: 8})
    expect(await importExport('teal', teal, true)).toEqual({inserted: 0, updated: 0, unchanged: [], identical: 8})
  })

  it('names Teal columns in its problems', async () => {
    const error = await importError('teal', 'Company Name,Job Title,Status,Job URL\nAcme,Engineer,Dreaming,\n')
    expect(error.details).toEqual([
      {
        row: 2,
        field: 'status',
        message: 'unknown stage "Dreaming" in Teal column "Status"; see "jobagent import --help" for the stages',
      },
      {row: 2, field: 'url', message: `Teal column "Job URL" is empty; the job's URL identifies the application`},
    ])
  })
})

describe('an export imported in the wrong format', () => {
  function ownCsvError(text: string): ValidationError {
    try {
      parseApplicationsCsv(text, 'export.csv', {otherFormatHint: trackerExportHint})
    } catch (error) {
      return error as ValidationError
    }
    throw new Error('expected the CSV to be refused')
  }

  it('is named for what it is when imported as jobagent CSV, instead of a list of column errors', () => {
    // Given Huntr's and Teal's exports, imported without --from
    const huntr = ownCsvError(fixture('huntr-export.csv'))
    const teal = ownCsvError(fixture('teal-export.csv'))
    // Then the hint says which --from to add, and the columns are not listed one by one
    expect(huntr.message).toBe('export.csv is not a jobagent applications CSV')
    expect(huntr.hint).toBe('this looks like a Huntr export: add --from huntr')
    expect(huntr.details).toEqual([])
    expect(teal.hint).toBe('this looks like a Teal export: add --from teal')
  })

  it('keeps the column errors of a CSV that is no known export', () => {
    const error = ownCsvError('Employer,Job Title,URL\nAcme,Engineer,https://example.org/1\n')
    expect(error.message).toBe('export.csv is not a valid applications CSV')
    expect(error.details).toContainEqual({row: 1, field: 'Employer', message: 'unknown column "Employer"'})
  })

  it('names the other tracker when --from names the wrong one', async () => {
    const error = await importError('huntr', fixture('teal-export.csv'))
    expect(error.message).toBe('huntr.csv is not a Huntr CSV export')
    expect(error.hint).toBe('this looks like a Teal export: use --from teal')
  })
})

describe('the stage table', () => {
  it.each([
    ['Wishlist', 'saved'],
    ['BOOKMARKED', 'saved'],
    ['Applied', 'applied'],
    ['applying', 'applied'],
    ['Interview', 'interviewing'],
    ['Phone  Screen', 'interviewing'],
    ['Onsite', 'interviewing'],
    ['Technical Interview', 'interviewing'],
    ['Final Interview', 'interviewing'],
    ['2nd interview', 'interviewing'],
    ['Offer', 'offer'],
    ['Offered', 'offer'],
    ['Offer Received', 'offer'],
    ['Accepted', 'accepted'],
    ['Rejected', 'rejected'],
    ['Not Selected', 'rejected'],
    ['I Withdrew', 'withdrawn'],
    ['No Response', 'ghosted'],
    ['Ghosted', 'ghosted'],
  ])('maps %j to %s', (stage, status) => {
    expect(stageStatus(` ${stage} `)).toBe(status)
  })

  it('maps no other stage', () => {
    for (const stage of ['', 'Archive', 'Reject', 'Applied?', 'Screened out'])
      expect(stageStatus(stage), stage).toBe(undefined)
  })
})

describe('saved dates', () => {
  it.each([
    ['2026-03-14', '2026-03-14T00:00:00.000'],
    ['2026-03-14T08:09:10.5', '2026-03-14T08:09:10.500'],
    ['3/14/2026', '2026-03-14T00:00:00.000'],
    ['03/04/2026 12:30 AM', '2026-03-04T00:30:00.000'],
    ['3/4/2026, 12:30:15 pm', '2026-03-04T12:30:15.000'],
    ['3/4/2026 17:45', '2026-03-04T17:45:00.000'],
    ['Mar 14, 2026', '2026-03-14T00:00:00.000'],
    ['September 9 2026', '2026-09-09T00:00:00.000'],
    ['Sept 9, 2026', '2026-09-09T00:00:00.000'],
    ['Sat, Mar 14, 2026', '2026-03-14T00:00:00.000'],
    ['14 March 2026', '2026-03-14T00:00:00.000'],
    ['29 Feb 2028 9:05 pm', '2028-02-29T21:05:00.000'],
  ])('reads %j as %s', (text, local) => {
    expect(savedDate(text)).toBe(local)
  })

  it.each([
    'not a date',
    '14/3/2026',
    '2/30/2026',
    '29 Feb 2026',
    'Mayday 3, 2026',
    '3/4/2026 13:00 PM',
    '3/4/2026 24:00',
    '2026/03/14',
  ])('refuses %j', (text) => {
    expect(savedDate(text)).toBeUndefined()
  })
})
