import {join} from 'node:path'
import Database from 'better-sqlite3'
import {ApplicationService} from '../../src/core/applications/application-service.js'
import {ContactService} from '../../src/core/applications/contact-service.js'
import {type Clock, localTimestamp} from '../../src/core/time.js'
import {formatWallClock, wallClockAt} from '../../src/core/time-zones.js'
import {openSqlite, type SqliteDatabase} from '../../src/storage/sqlite/database.js'
import {SqliteApplicationStore} from '../../src/storage/sqlite/sqlite-application-store.js'
import {SqliteContactStore} from '../../src/storage/sqlite/sqlite-contact-store.js'
import {TRACKER_MIGRATIONS} from '../../src/storage/sqlite/tracker-migrations.js'

/** The local timestamp `days` days before `from` (now by default), as applied_date and updated_at are kept. */
export function daysAgo(days: number, from: Date = new Date()): string {
  return localTimestamp(new Date(from.getTime() - days * 86_400_000))
}

/** When the stepping clock starts: the seeded applications' applied_date. */
export const SEEDED_AT = new Date(2026, 10, 22, 5, 17, 33, 123)

/**
 * The environment of a spawned jobagent whose clock reads the day after the seeding (JOBAGENT_NOW), so what it
 * derives from the seeded dates (follow-ups due, days ago) is the same on every day the suite runs.
 */
export const DAY_AFTER_SEEDING = {JOBAGENT_NOW: '2026-11-23T09:00:00'} as const

/** A clock that starts at a fixed local time and moves one second each time it is read. */
export function steppingClock(start = SEEDED_AT): Clock & {reads: number} {
  const clock = {
    reads: 0,
    now: () => new Date(start.getTime() + 1000 * clock.reads++),
  }
  return clock
}

export interface Tracker {
  db: SqliteDatabase
  store: SqliteApplicationStore
  service: ApplicationService
  contacts: ContactService
  clock: ReturnType<typeof steppingClock>
}

/** The real tracker on an in-memory SQLite database with a predictable clock. */
export function memoryTracker(file = ':memory:'): Tracker {
  const db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
  const store = new SqliteApplicationStore(db, file)
  const clock = steppingClock()
  const service = new ApplicationService(store, clock)
  return {
    db,
    store,
    service,
    contacts: new ContactService(service, new SqliteContactStore(db, file, store), clock),
    clock,
  }
}

export function application(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Backend Engineer',
    company: 'Acme',
    location: 'Berlin',
    url: 'https://example.org/jobs/1',
    source: 'remoteok',
    ...overrides,
  }
}

/** Records applications straight into `<home>/jobagent.db`, as earlier CLI runs would have. */
export async function seedTracker(
  home: string,
  records: readonly Record<string, unknown>[],
  clock: Clock = steppingClock(),
): Promise<void> {
  const file = join(home, 'jobagent.db')
  const db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
  try {
    const service = new ApplicationService(new SqliteApplicationStore(db, file), clock)
    for (const record of records) await service.record(record)
  } finally {
    db.close()
  }
}

/** Reads `<home>/jobagent.db` the way a user with the sqlite3 shell would, to check what a command wrote. */
export function readTracker(home: string): {
  applications: Record<string, unknown>[]
  history: Record<string, unknown>[]
} {
  const db = new Database(join(home, 'jobagent.db'), {readonly: true, fileMustExist: true})
  try {
    return {
      applications: db.prepare('SELECT * FROM applications ORDER BY id').all() as Record<string, unknown>[],
      history: db.prepare('SELECT * FROM status_history ORDER BY id').all() as Record<string, unknown>[],
    }
  } finally {
    db.close()
  }
}

/**
 * Writes `count` applications with one interview each straight into `<home>/jobagent.db` in one transaction, as a
 * long use of the tracker would leave them: interviews an hour apart from `from` on, in the zones given in turn.
 */
export function seedInterviews(
  home: string,
  count: number,
  options: {from?: Date; zones?: readonly string[]} = {},
): void {
  const file = join(home, 'jobagent.db')
  const db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
  const zones = options.zones ?? ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo']
  const start = (options.from ?? new Date()).getTime()
  const now = localTimestamp(new Date(start))
  try {
    const application = db.prepare(
      `INSERT INTO applications (url_key, canonical_key, url, title, company, location, source, applied_date, status,
         notes, updated_at)
       VALUES (@url, @url, @url, @title, 'Acme, Inc.', 'Berlin', 'remoteok', @now, 'interviewing', '', @now)
       RETURNING id`,
    )
    const interview = db.prepare(
      `INSERT INTO interviews (application_id, starts_at, time_zone, kind, with_whom, notes, created_at)
       VALUES (?, ?, ?, 'video', 'Ann Lee, CTO', 'system design; bring questions about the on-call rota', ?)`,
    )
    db.transaction(() => {
      for (let index = 0; index < count; index++) {
        const zone = zones[index % zones.length] ?? 'UTC'
        const url = `https://example.org/jobs/${index + 1}`
        const {id} = application.get({url, title: `Backend Engineer ${index + 1}`, now}) as {id: number}
        const startsAt = formatWallClock(wallClockAt(start + index * 3_600_000, zone))
        interview.run(id, startsAt, zone, now)
      }
    })()
  } finally {
    db.close()
  }
}

/** The contacts of jobagent.db's applications, as the interview service reads them (by an application's id). */
export function contactsOf(
  db: SqliteDatabase,
  file: string,
  store: SqliteApplicationStore,
  service: ApplicationService,
): ContactService {
  return new ContactService(service, new SqliteContactStore(db, file, store))
}
