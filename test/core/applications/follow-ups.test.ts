import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {ApplicationService} from '../../../src/core/applications/application-service.js'
import {FollowUps} from '../../../src/core/applications/follow-ups.js'
import {NotFoundError, ValidationError} from '../../../src/core/errors.js'
import {openSqlite, type SqliteDatabase} from '../../../src/storage/sqlite/database.js'
import {SqliteApplicationStore} from '../../../src/storage/sqlite/sqlite-application-store.js'
import {TRACKER_MIGRATIONS} from '../../../src/storage/sqlite/tracker-migrations.js'
import {tempDir} from '../../helpers/cli.js'
import {daysAgo} from '../../helpers/tracker.js'

let dir: ReturnType<typeof tempDir>
let db: SqliteDatabase
let file: string
let now: Date

beforeEach(() => {
  dir = tempDir('jobagent-follow-ups-')
  file = join(dir.path, 'jobagent.db')
  db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
  now = new Date('2026-11-24T09:00:00.000')
})

afterEach(() => {
  db.close()
  dir.cleanup()
})

const clock = {now: () => now}
const followUps = () =>
  new FollowUps(
    new SqliteApplicationStore(db, file),
    {after_days: 7, ghosted_after_days: 21, after_interview_days: 5},
    clock,
  )
const tracker = () => new ApplicationService(new SqliteApplicationStore(db, file))

/** Tracks an application whose status last changed `daysAgo` days before now. */
async function tracked(n: number, status: string, days: number) {
  const url = `https://example.org/jobs/${n}`
  await tracker().record({title: `Engineer ${n}`, company: `Company ${n}`, location: '', url, source: 'test', status})
  const changed = daysAgo(days, now)
  db.prepare('UPDATE applications SET updated_at = ? WHERE url = ?').run(changed, url)
  return url
}

describe('follow-ups', () => {
  it('are the applications waiting in applied or interviewing for after_days or more, longest first', async () => {
    await tracked(1, 'applied', 3)
    await tracked(2, 'applied', 7)
    await tracked(3, 'interviewing', 20)
    await tracked(4, 'saved', 30)
    await tracked(5, 'rejected', 30)
    await tracked(6, 'offer', 30)
    const due = await followUps().due()
    expect(due.map((application) => [application.url, application.days_waiting])).toEqual([
      ['https://example.org/jobs/3', 20],
      ['https://example.org/jobs/2', 7],
    ])
  })

  it('are named by a digest once per period of after_days', async () => {
    await tracked(1, 'applied', 10)
    const first = await followUps().toRemind(20)
    expect(first.named).toHaveLength(1)
    await followUps().markReminded(first.named)
    expect(await followUps().toRemind(20)).toEqual({named: [], total: 0})
    now = new Date(now.getTime() + 6 * 86_400_000)
    expect(await followUps().toRemind(20)).toEqual({named: [], total: 0})
    now = new Date(now.getTime() + 86_400_000)
    expect((await followUps().toRemind(20)).named.map((application) => application.days_waiting)).toEqual([17])
  })

  it('are named by a digest as many at a time as it names, longest waiting first, the rest counted for later', async () => {
    for (const n of [1, 2, 3, 4, 5]) await tracked(n, 'applied', 10 + n)
    const first = await followUps().toRemind(2)
    expect(first.total).toBe(5)
    expect(first.named.map((application) => application.days_waiting)).toEqual([15, 14])
    await followUps().markReminded(first.named)
    const second = await followUps().toRemind(2)
    expect([second.total, second.named.map((application) => application.days_waiting)]).toEqual([3, [13, 12]])
    // Without a channel a run names none: it only counts them.
    expect(await followUps().toRemind(0)).toEqual({named: [], total: 3})
    expect((await followUps().due()).length).toBe(5)
  })

  it('of imported applications count from the applied date in applied, and from the import in other statuses', async () => {
    const imported = (n: number, status: string, applied_date: string) => ({
      row: n,
      value: {
        title: `Role ${n}`,
        company: 'Acme',
        location: '',
        url: `https://example.org/jobs/${n}`,
        source: 'test',
        status,
        notes: '',
        applied_date,
      },
    })
    const importing = new ApplicationService(new SqliteApplicationStore(db, file), clock)
    await importing.import(
      [
        imported(1, 'applied', '2026-10-25T09:00:00.000'),
        imported(2, 'interviewing', '2026-10-25T09:00:00.000'),
        imported(3, 'applied', '2026-11-22T09:00:00.000'),
        // A date after the import (a typing slip, another zone) is no earlier start.
        imported(4, 'applied', '2026-12-24T09:00:00.000'),
      ],
      {update: false},
    )
    const due = await followUps().due()
    expect(due.map((application) => [application.url, application.days_waiting])).toEqual([
      ['https://example.org/jobs/1', 30],
    ])
    now = new Date('2026-12-01T09:00:00.000')
    expect((await followUps().due()).map((application) => application.url)).toEqual([
      'https://example.org/jobs/1',
      'https://example.org/jobs/3',
      'https://example.org/jobs/2',
      'https://example.org/jobs/4',
    ])
  })

  it('can be snoozed: not due before the time given, due again after it', async () => {
    const url = await tracked(1, 'applied', 10)
    // The URL as the user may type it: the host's case does not matter.
    const until = await followUps().snooze(await tracker().find(url.replace('example.org', 'Example.org')), 7)
    expect(until).toBe('2026-12-01T09:00:00.000')
    expect(await followUps().due()).toEqual([])
    now = new Date('2026-12-01T09:00:00.001')
    expect(await followUps().due()).toHaveLength(1)
  })

  it('refuses a snooze of an untracked url or an impossible number of days', async () => {
    await expect(tracker().find('https://example.org/nope')).rejects.toBeInstanceOf(NotFoundError)
    const application = await tracker().find(await tracked(1, 'applied', 10))
    await expect(followUps().snooze(application, 0)).rejects.toBeInstanceOf(ValidationError)
    await expect(followUps().snooze(application, 366)).rejects.toBeInstanceOf(ValidationError)
    await expect(followUps().snooze({...application, id: 999}, 7)).rejects.toBeInstanceOf(NotFoundError)
  })

  it('start again with a status change', async () => {
    const url = await tracked(1, 'applied', 10)
    expect(await followUps().due()).toHaveLength(1)
    await tracker().changeStatus(url, 'interviewing', 'call booked')
    expect(await followUps().due()).toEqual([])
  })
})
