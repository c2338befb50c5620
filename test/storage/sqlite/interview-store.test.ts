import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {ApplicationService} from '../../../src/core/applications/application-service.js'
import {BEFORE_INTERVIEWING, InterviewService} from '../../../src/core/applications/interviews.js'
import {ValidationError} from '../../../src/core/errors.js'
import {openSqlite, type SqliteDatabase} from '../../../src/storage/sqlite/database.js'
import {SqliteApplicationStore} from '../../../src/storage/sqlite/sqlite-application-store.js'
import {SqliteInterviewStore} from '../../../src/storage/sqlite/sqlite-interview-store.js'
import {TRACKER_MIGRATIONS} from '../../../src/storage/sqlite/tracker-migrations.js'
import {tempDir} from '../../helpers/cli.js'
import {application, contactsOf} from '../../helpers/tracker.js'

let dir: ReturnType<typeof tempDir>
let db: SqliteDatabase
let file: string
let applications: SqliteApplicationStore
let tracker: ApplicationService
const clock = {now: () => new Date('2026-12-01T12:00:00Z')}

beforeEach(() => {
  dir = tempDir('jobagent-interviews-')
  file = join(dir.path, 'jobagent.db')
  db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
  applications = new SqliteApplicationStore(db, file)
  tracker = new ApplicationService(applications, clock)
})

afterEach(() => {
  db.close()
  dir.cleanup()
})

const service = () =>
  new InterviewService(
    new SqliteInterviewStore(db, file, applications),
    tracker,
    contactsOf(db, file, applications, tracker),
    {timeZone: 'Europe/Berlin', clock},
  )

describe('adding an interview to jobagent.db', () => {
  it('keeps it with its zone, moves an applied application to interviewing and writes both history entries', async () => {
    await tracker.record(application({notes: 'referred by Bo'}))
    const added = await service().schedule('1', {at: '2026-12-02 14:00', kind: 'video', with: 'Ann Lee, CTO'})
    expect(added.interview).toMatchObject({id: 1, starts_at: '2026-12-02T14:00', time_zone: 'Europe/Berlin'})
    expect([added.previous.status, added.current.status]).toEqual(['applied', 'interviewing'])
    // Read back through another connection: the write is on disk.
    const other = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
    try {
      expect(other.prepare('SELECT status, notes FROM applications WHERE id = 1').get()).toEqual({
        status: 'interviewing',
        notes: 'referred by Bo',
      })
      expect(other.prepare('SELECT application_id, kind, with_whom FROM interviews').all()).toEqual([
        {application_id: 1, kind: 'video', with_whom: 'Ann Lee, CTO'},
      ])
    } finally {
      other.close()
    }
    const {history} = await tracker.get('1')
    expect(history.map((entry) => [entry.change, entry.old_status, entry.new_status, entry.details])).toEqual([
      ['interview', 'applied', 'applied', {at: '2026-12-02 14:00 Europe/Berlin', kind: 'video', with: 'Ann Lee, CTO'}],
      ['status', 'applied', 'interviewing', null],
    ])
  })

  it('leaves a status past interviewing as it is', async () => {
    await tracker.record(application({status: 'offer'}))
    const added = await service().schedule('1', {at: '2026-12-02T09:00', time_zone: 'America/New_York'})
    expect(added.current.status).toBe('offer')
    expect(added.interview.time_zone).toBe('America/New_York')
    expect((await tracker.get('1')).history.map((entry) => entry.change)).toEqual(['interview'])
    expect(BEFORE_INTERVIEWING).toEqual(['saved', 'applied'])
  })

  it('writes nothing when a part of the write fails', async () => {
    await tracker.record(application())
    const failing = new SqliteInterviewStore(db, file, {
      addHistory: () => {
        throw new Error('history is full')
      },
    })
    await expect(
      failing.add(
        1,
        {
          starts_at: '2026-12-02T14:00',
          time_zone: 'UTC',
          utc_offset: 0,
          duration_minutes: 60,
          kind: null,
          with: '',
          interviewer_ids: [],
          place: '',
          link: '',
          notes: '',
        },
        {at: '2026-12-01T12:00:00.000', moveFrom: BEFORE_INTERVIEWING},
      ),
    ).rejects.toThrow('history is full')
    expect(db.prepare('SELECT count(*) FROM interviews').pluck().get()).toBe(0)
    expect((await tracker.find('1')).status).toBe('applied')
  })

  it('refuses an impossible time, naming the field, and adds nothing', async () => {
    await tracker.record(application())
    const refused = service().schedule('1', {at: '2026-02-30 14:00'})
    await expect(refused).rejects.toBeInstanceOf(ValidationError)
    await expect(refused).rejects.toMatchObject({
      message: 'invalid interview: at "2026-02-30 14:00" is not a day of the calendar (2026-02-30 does not exist)',
      details: [{field: 'at', message: expect.stringContaining('2026-02-30')}],
    })
    await expect(service().schedule('1', {at: '2026-12-02 14:00', time_zone: 'Mars/Olympus'})).rejects.toThrow(
      'unknown time_zone "Mars/Olympus"',
    )
    expect(db.prepare('SELECT count(*) FROM interviews').pluck().get()).toBe(0)
  })

  it('lists upcoming interviews soonest first, the past ones with all, and drops them with a purged application', async () => {
    await tracker.record(application())
    await tracker.record(application({url: 'https://example.org/jobs/2', title: 'SRE'}))
    const interviews = service()
    await interviews.schedule('1', {at: '2026-12-05 10:00'})
    await interviews.schedule('2', {at: '2026-12-03 10:00'})
    await interviews.schedule('1', {at: '2026-11-28 10:00', past: true})
    expect((await interviews.list()).map((one) => one.starts_at)).toEqual(['2026-12-03T10:00', '2026-12-05T10:00'])
    const all = await interviews.list({all: true})
    expect(all.map((one) => [one.starts_at, one.application.title])).toEqual([
      ['2026-12-03T10:00', 'SRE'],
      ['2026-12-05T10:00', 'Backend Engineer'],
      ['2026-11-28T10:00', 'Backend Engineer'],
    ])
    await tracker.remove('2')
    expect((await interviews.list()).map((one) => one.application_id)).toEqual([1])
    await tracker.purge('1')
    expect(db.prepare('SELECT count(*) FROM interviews WHERE application_id = 1').pluck().get()).toBe(0)
  })
})
