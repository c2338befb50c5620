import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {APPLICATION_STATUSES} from '../../../src/core/applications/application.js'
import {ConflictError, NotFoundError, ValidationError} from '../../../src/core/errors.js'
import {offsetTimestamp} from '../../../src/core/time.js'
import {tempDir} from '../../helpers/cli.js'
import {application, memoryTracker, type Tracker} from '../../helpers/tracker.js'

/** A history time of the stepping clock (which starts at 2026-11-22 05:17:33.123 local) `seconds` after its start. */
const clockAt = (seconds: number) => offsetTimestamp(new Date(2026, 10, 22, 5, 17, 33 + seconds, 123))

let tracker: Tracker

beforeEach(() => {
  tracker = memoryTracker()
})

afterEach(() => {
  tracker.db.close()
})

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    return error as Error
  }
  throw new Error('expected the promise to reject')
}

describe('recording an application', () => {
  it('defaults the status to applied, the notes to empty and applied_date to now', async () => {
    const recorded = await tracker.service.record(application())
    expect(recorded).toEqual({
      title: 'Backend Engineer',
      company: 'Acme',
      location: 'Berlin',
      url: 'https://example.org/jobs/1',
      source: 'remoteok',
      applied_date: '2026-11-22T05:17:33.123',
      status: 'applied',
      notes: '',
      id: 1,
      updated_at: '2026-11-22T05:17:33.123',
      posting_closed_at: null,
      salary_expected: '',
      salary_offered: '',
      referral: '',
      removed_at: null,
      next_action: '',
      next_action_due: null,
      documents: [],
    })
  })

  it('keeps a given status and notes, and allows an empty location', async () => {
    const recorded = await tracker.service.record(application({location: undefined, status: 'saved', notes: 'later'}))
    expect(recorded).toMatchObject({location: '', status: 'saved', notes: 'later'})
  })

  it('refuses control characters and bidi overrides in every field, naming the field, notes keeping line breaks', async () => {
    const error = await rejection(
      tracker.service.record(
        application({title: 'a\u001b[2Jb', company: '\u202eemca', location: 'x\u0085', notes: 'fine\n\u0000'}),
      ),
    )
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).details.map((detail) => detail.field)).toEqual([
      'title',
      'company',
      'location',
      'notes',
    ])
    expect(error.message).toContain('title holds a control character (U+001B at position 2); remove it')
    expect(await tracker.service.counts()).toMatchObject({total: 0})
    const kept = await tracker.service.record(application({notes: 'line 1\r\n\tline 2', company: 'שלום\u200f'}))
    expect(kept).toMatchObject({notes: 'line 1\r\n\tline 2', company: 'שלום\u200f'})
    const changed = await rejection(tracker.service.changeStatus(kept.url, 'offer', 'a\rb'))
    expect(changed.message).toContain('notes holds a control character (U+000D at position 2)')
  })

  it('names every missing field in one error', async () => {
    const error = await rejection(tracker.service.record({url: 'https://example.org/jobs/1'}))
    expect(error).toBeInstanceOf(ValidationError)
    expect(error.message).toContain('title is required')
    expect(error.message).toContain('company is required')
    expect(error.message).toContain('source is required')
    expect((error as ValidationError).details.map((detail) => detail.field)).toEqual(['title', 'company', 'source'])
  })

  it('refuses blank text fields and an unknown status', async () => {
    const blank = await rejection(tracker.service.record(application({title: '   '})))
    expect(blank.message).toContain('title must not be empty')
    // An empty url is named once, not also as no http address.
    const noUrl = await rejection(tracker.service.record(application({url: ''})))
    expect((noUrl as ValidationError).details).toEqual([{field: 'url', message: 'url must not be empty'}])
    const status = await rejection(tracker.service.record(application({status: 'hired'})))
    expect(status).toBeInstanceOf(ValidationError)
    expect(status.message).toContain('unknown status "hired" (did you mean "accepted"?)')
    // A misspelling is guessed by its nearest status.
    const typo = await rejection(tracker.service.record(application({status: 'intervewing'})))
    expect(typo.message).toContain('(did you mean "interviewing"?)')
  })

  it.each(['ftp://example.org/jobs/1', 'javascript:alert(1)', 'example.org/jobs/1', 'mailto:jobs@example.org'])(
    'refuses the non-http url %s',
    async (url) => {
      const error = await rejection(tracker.service.record(application({url})))
      expect(error).toBeInstanceOf(ValidationError)
      expect(error.message).toContain('url must be an http:// or https:// address')
      expect(await tracker.service.counts()).toEqual({total: 0, applied: 0, pending: 0})
    },
  )

  it('refuses a url already tracked under another spelling, naming its status and how to change it', async () => {
    await tracker.service.record(application({url: 'https://example.org/jobs/1', status: 'offer'}))
    const error = await rejection(tracker.service.record(application({url: 'HTTPS://Example.ORG/jobs/1/'})))
    expect(error).toBeInstanceOf(ConflictError)
    expect(error.message).toBe('already tracked as #1 https://example.org/jobs/1 (status: offer)')
    expect((error as ConflictError).hint).toBe('change it with: jobagent status 1 <status>')
    expect((await tracker.service.list()).applications).toHaveLength(1)
  })

  it('refuses a url that spells an unreserved character as its percent-encoding (/%64up is /dup)', async () => {
    await tracker.service.record(application({url: 'https://example.org/dup'}))
    const error = await rejection(tracker.service.record(application({url: 'https://example.org/%64up'})))
    expect(error).toBeInstanceOf(ConflictError)
    expect(error.message).toBe('already tracked as #1 https://example.org/dup (status: applied)')
    expect((await tracker.service.find('https://example.org/%64up')).id).toBe(1)
    expect((await tracker.service.list()).applications).toHaveLength(1)
  })

  it('stores the url as given', async () => {
    await tracker.service.record(application({url: 'https://Example.org/Jobs/1/'}))
    const {application: found} = await tracker.service.get('https://example.org/Jobs/1')
    expect(found.url).toBe('https://Example.org/Jobs/1/')
  })
})

describe('showing an application', () => {
  it('returns the record with its status history, oldest change first', async () => {
    await tracker.service.record(application({notes: 'first notes'}))
    await tracker.service.changeStatus('https://example.org/jobs/1', 'interviewing', 'call Tuesday')
    await tracker.service.changeStatus('https://example.org/jobs/1', 'offer')
    const {application: found, history} = await tracker.service.get('https://example.org/jobs/1/')
    expect(found).toMatchObject({status: 'offer', notes: '', updated_at: '2026-11-22T05:17:35.123'})
    expect(history).toEqual([
      {
        changed_at: clockAt(1),
        old_status: 'applied',
        new_status: 'interviewing',
        old_notes: 'first notes',
        change: 'status',
        details: null,
      },
      {
        changed_at: clockAt(2),
        old_status: 'interviewing',
        new_status: 'offer',
        old_notes: 'call Tuesday',
        change: 'status',
        details: null,
      },
    ])
  })

  it('reports an untracked url as not found with a hint', async () => {
    const error = await rejection(tracker.service.get('https://example.org/nothing'))
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error.message).toBe('https://example.org/nothing is not tracked')
    expect((error as NotFoundError).hint).toContain('jobagent status')
  })
})

describe('changing the status', () => {
  it('replaces the notes and keeps the old status and notes in the history', async () => {
    await tracker.service.record(application({notes: 'recruiter: Ann'}))
    const change = await tracker.service.changeStatus('https://example.org/jobs/1', 'rejected')
    expect(change.previous).toMatchObject({status: 'applied', notes: 'recruiter: Ann'})
    expect(change.current).toMatchObject({status: 'rejected', notes: '', applied_date: '2026-11-22T05:17:33.123'})
    const {history} = await tracker.service.get('https://example.org/jobs/1')
    expect(history).toEqual([
      expect.objectContaining({old_status: 'applied', new_status: 'rejected', old_notes: 'recruiter: Ann'}),
    ])
  })

  it('allows any transition, including back to the same status', async () => {
    await tracker.service.record(application({status: 'ghosted'}))
    await tracker.service.changeStatus('https://example.org/jobs/1', 'saved')
    const change = await tracker.service.changeStatus('https://example.org/jobs/1', 'saved', 'again')
    expect(change.current).toMatchObject({status: 'saved', notes: 'again'})
    expect((await tracker.service.get('https://example.org/jobs/1')).history).toHaveLength(2)
  })

  it('refuses an unknown status and lists the allowed ones, changing nothing', async () => {
    await tracker.service.record(application())
    const error = await rejection(tracker.service.changeStatus('https://example.org/jobs/1', 'hired'))
    expect(error).toBeInstanceOf(ValidationError)
    expect(error.message).toContain(APPLICATION_STATUSES.join(', '))
    expect((await tracker.service.get('https://example.org/jobs/1')).history).toEqual([])
  })

  it('reports an untracked url as not found', async () => {
    const error = await rejection(tracker.service.changeStatus('https://example.org/other', 'offer'))
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error.message).toContain('https://example.org/other')
  })
})

describe('adding a note', () => {
  it('keeps every line added at once, from this process and another connection, and each replaced notes in the history', async () => {
    const dir = tempDir()
    const here = memoryTracker(join(dir.path, 'jobagent.db'))
    const there = memoryTracker(join(dir.path, 'jobagent.db'))
    try {
      await here.service.record(application({notes: 'first'}))
      const lines = Array.from({length: 20}, (_, index) => `line ${index + 1}`)
      const writes = lines.map((line, index) => (index % 2 === 0 ? here : there).service.addNote('1', line))
      // An edit from the other connection meanwhile changes its field and keeps every line.
      writes.push(there.service.edit('1', {title: 'Staff Engineer'}))
      await Promise.all(writes)
      const {application: noted, history} = await here.service.get('1')
      expect(noted.title).toBe('Staff Engineer')
      expect(noted.notes.split('\n').toSorted()).toEqual([...lines, 'first'].toSorted())
      expect(history).toHaveLength(21)
    } finally {
      here.db.close()
      there.db.close()
      dir.cleanup()
    }
  })

  it('refuses a line that would make the notes longer than 10,000 characters, changing nothing', async () => {
    await tracker.service.record(application({notes: 'x'.repeat(9_995)}))
    const error = await rejection(tracker.service.addNote('1', 'call on Tuesday'))
    expect(error).toBeInstanceOf(ValidationError)
    expect(error.message).toBe('notes would be longer than 10000 characters with this line; nothing was added')
    expect((error as ValidationError).details).toEqual([
      {field: 'notes', message: 'notes are longer than 10000 characters'},
    ])
    expect((await tracker.service.get('1')).history).toEqual([])
  })
})

describe('counting and listing', () => {
  beforeEach(async () => {
    await tracker.service.record(application({url: 'https://example.org/a', status: 'saved'}))
    await tracker.service.record(application({url: 'https://example.org/b', status: 'saved'}))
    await tracker.service.record(application({url: 'https://example.org/c'}))
    await tracker.service.record(application({url: 'https://example.org/d', status: 'rejected'}))
  })

  it('counts everything as total, all but saved as applied and saved as pending', async () => {
    expect(await tracker.service.counts()).toEqual({total: 4, applied: 2, pending: 2})
  })

  it('counts zero of everything when nothing is tracked', async () => {
    const empty = memoryTracker()
    expect(await empty.service.counts()).toEqual({total: 0, applied: 0, pending: 0})
    empty.db.close()
  })

  it('lists the newest first with the counts of all records', async () => {
    const {applications, counts} = await tracker.service.list()
    expect(applications.map((a) => a.url)).toEqual([
      'https://example.org/d',
      'https://example.org/c',
      'https://example.org/b',
      'https://example.org/a',
    ])
    expect(counts.total).toBe(4)
  })

  it('filters by status but keeps the counts of all records', async () => {
    const {applications, counts} = await tracker.service.list({status: 'saved'})
    expect(applications.map((a) => a.url).sort()).toEqual(['https://example.org/a', 'https://example.org/b'])
    expect(counts).toEqual({total: 4, applied: 2, pending: 2})
  })

  it('refuses an unknown status filter', async () => {
    await expect(tracker.service.list({status: 'nope'})).rejects.toBeInstanceOf(ValidationError)
  })
})

describe('importing', () => {
  const rows = (...values: Record<string, unknown>[]) => values.map((value, index) => ({row: index + 1, value}))

  it('inserts valid rows, keeping a given applied_date and defaulting a missing one to now', async () => {
    const outcome = await tracker.service.import(
      rows(
        application({url: 'https://example.org/a', applied_date: '2025-01-02T03:04:05.678', status: 'offer'}),
        application({url: 'https://example.org/b', notes: null}),
      ),
      {update: false},
    )
    expect(outcome).toEqual({inserted: 2, updated: 0, unchanged: [], identical: 0})
    const a = await tracker.service.get('https://example.org/a')
    expect(a.application).toMatchObject({applied_date: '2025-01-02T03:04:05.678', status: 'offer'})
    const b = await tracker.service.get('https://example.org/b')
    expect(b.application).toMatchObject({applied_date: '2026-11-22T05:17:33.123', status: 'applied', notes: ''})
  })

  it('takes an empty status cell as the default status', async () => {
    await tracker.service.import(rows(application({status: ''})), {update: false})
    expect((await tracker.service.get('https://example.org/jobs/1')).application.status).toBe('applied')
  })

  it('writes nothing when one row is invalid and reports the row numbers', async () => {
    const error = await rejection(
      tracker.service.import(
        rows(
          application({url: 'https://example.org/a'}),
          application({url: 'ftp://example.org/b'}),
          application({url: 'https://example.org/c', title: undefined, status: 'hired'}),
          application({url: 'https://example.org/d', applied_date: 'yesterday'}),
        ),
        {update: false},
      ),
    )
    expect(error).toBeInstanceOf(ValidationError)
    expect(error.message).toBe('3 invalid row(s); nothing was imported')
    const details = (error as ValidationError).details
    expect(details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({row: 2, field: 'url'}),
        expect.objectContaining({row: 3, field: 'title', message: 'title is required'}),
        expect.objectContaining({row: 3, field: 'status'}),
        expect.objectContaining({row: 4, field: 'applied_date'}),
      ]),
    )
    expect(await tracker.service.counts()).toEqual({total: 0, applied: 0, pending: 0})
  })

  it('refuses an applied_date before 1970 (0026 is no 1926), naming the row and the field, and imports nothing', async () => {
    const error = await rejection(
      tracker.service.import(
        rows(
          application({url: 'https://example.org/a', applied_date: '0026-11-22'}),
          application({url: 'https://example.org/b', applied_date: '0026-11-22T04:17:33Z'}),
          application({url: 'https://example.org/c', applied_date: '1969-12-31T23:59:59.999'}),
          application({url: 'https://example.org/d', applied_date: '1970-01-01'}),
        ),
        {update: false},
      ),
    )
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).details).toEqual([
      {
        row: 1,
        field: 'applied_date',
        message: 'applied_date "0026-11-22" is before the year 1970; write the year in full, e.g. 2026-11-22',
      },
      {
        row: 2,
        field: 'applied_date',
        message: 'applied_date "0026-11-22T04:17:33Z" is before the year 1970; write the year in full, e.g. 2026-11-22',
      },
      {
        row: 3,
        field: 'applied_date',
        message:
          'applied_date "1969-12-31T23:59:59.999" is before the year 1970; write the year in full, e.g. 2026-11-22',
      },
    ])
    expect(await tracker.service.counts()).toEqual({total: 0, applied: 0, pending: 0})
  })

  it('refuses a url that appears twice in the file, naming both rows', async () => {
    const error = await rejection(
      tracker.service.import(
        rows(application({url: 'https://example.org/a'}), application({url: 'https://EXAMPLE.org/a/'})),
        {update: false},
      ),
    )
    expect((error as ValidationError).details).toEqual([
      {row: 2, field: 'url', message: 'duplicate of row 1 (https://EXAMPLE.org/a/)'},
    ])
    expect((await tracker.service.counts()).total).toBe(0)
  })

  it('leaves already tracked applications unchanged and reports them', async () => {
    await tracker.service.record(application({url: 'https://example.org/a', status: 'offer', notes: 'mine'}))
    const outcome = await tracker.service.import(
      rows(
        application({url: 'https://example.org/a/', status: 'rejected'}),
        application({url: 'https://example.org/b'}),
      ),
      {update: false},
    )
    expect(outcome).toEqual({inserted: 1, updated: 0, unchanged: ['https://example.org/a/'], identical: 0})
    const {application: kept, history} = await tracker.service.get('https://example.org/a')
    expect(kept).toMatchObject({status: 'offer', notes: 'mine', url: 'https://example.org/a'})
    expect(history).toEqual([])
  })

  it('overwrites tracked applications with update and keeps the old status and notes in the history', async () => {
    await tracker.service.record(application({url: 'https://example.org/a', status: 'offer', notes: 'mine'}))
    const outcome = await tracker.service.import(
      rows(application({url: 'https://example.org/a', title: 'Staff Engineer', status: 'accepted', notes: 'signed'})),
      {update: true},
    )
    expect(outcome).toEqual({inserted: 0, updated: 1, unchanged: [], identical: 0})
    const {application: updated, history} = await tracker.service.get('https://example.org/a')
    expect(updated).toMatchObject({title: 'Staff Engineer', status: 'accepted', notes: 'signed'})
    expect(history).toEqual([
      {
        changed_at: clockAt(1),
        old_status: 'offer',
        new_status: 'accepted',
        old_notes: 'mine',
        change: 'status',
        details: null,
      },
    ])
  })

  it('keeps the tracked applied_date on update when the file gives none, and takes the one it gives', async () => {
    await tracker.service.record(application({url: 'https://example.org/a'}))
    await tracker.service.record(application({url: 'https://example.org/b'}))
    const {application: before} = await tracker.service.get('https://example.org/a')
    await tracker.service.import(
      [
        {row: 1, value: application({url: 'https://example.org/a', status: 'offer'})},
        {row: 2, value: {...application({url: 'https://example.org/b'}), applied_date: '2026-01-05T09:00:00.000'}},
      ],
      {update: true},
    )
    expect((await tracker.service.get('https://example.org/a')).application.applied_date).toBe(before.applied_date)
    expect((await tracker.service.get('https://example.org/b')).application.applied_date).toBe(
      '2026-01-05T09:00:00.000',
    )
  })

  it('counts a tracked application the file repeats exactly as identical, and writes nothing for it even with update', async () => {
    const record = application({url: 'https://example.org/a', applied_date: '2026-01-05T09:00:00.000', notes: 'n'})
    await tracker.service.import(rows(record), {update: false})
    const before = await tracker.service.get('https://example.org/a')
    for (const update of [false, true]) {
      expect(await tracker.service.import(rows(record), {update})).toEqual({
        inserted: 0,
        updated: 0,
        unchanged: [],
        identical: 1,
      })
    }
    const {applied_date: _date, ...withoutDate} = record
    expect(await tracker.service.import(rows(withoutDate), {update: true})).toMatchObject({identical: 1})
    expect(await tracker.service.get('https://example.org/a')).toEqual(before)
  })

  it('imports nothing and reports nothing for an empty file', async () => {
    expect(await tracker.service.import([], {update: false})).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: [],
      identical: 0,
    })
  })
})
