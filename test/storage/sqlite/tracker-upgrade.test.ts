import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {ApplicationService} from '../../../src/core/applications/application-service.js'
import {openSqlite, type SqliteDatabase} from '../../../src/storage/sqlite/database.js'
import {SqliteApplicationStore} from '../../../src/storage/sqlite/sqlite-application-store.js'
import {SqliteInterviewStore} from '../../../src/storage/sqlite/sqlite-interview-store.js'
import {TRACKER_MIGRATIONS} from '../../../src/storage/sqlite/tracker-migrations.js'
import {tempDir} from '../../helpers/cli.js'
import {application, steppingClock} from '../../helpers/tracker.js'

const dir = tempDir()
const open: SqliteDatabase[] = []
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close()
  dir.cleanup()
})

describe('a tracker database of the release before short ids, edits and interviews', () => {
  it('keeps every application, its id and its history, and tracks on from there', async () => {
    const file = join(dir.path, 'jobagent.db')
    // What the release before wrote: the schema up to version 11, written through the store of that time's SQL.
    const before = openSqlite(file, {migrations: TRACKER_MIGRATIONS.filter((migration) => migration.version <= 11)})
    const insert = before.prepare(
      `INSERT INTO applications (id, url_key, canonical_key, url, title, company, location, source, applied_date,
         status, notes, updated_at, snoozed_until, reminded_at, posting_closed_at)
       VALUES (?, ?, ?, ?, ?, 'Acme', 'Berlin', 'remoteok', '2026-10-01T09:00:00.000', ?, ?, '2026-10-02T09:00:00.000',
         ?, NULL, ?)`,
    )
    insert.run(
      3,
      'https://example.org/3',
      'https://example.org/3',
      'https://example.org/3',
      'Three',
      'offer',
      'n3',
      null,
      null,
    )
    insert.run(
      7,
      'https://example.org/7?utm_source=x',
      'https://example.org/7',
      'https://example.org/7?utm_source=x',
      'Seven',
      'applied',
      '',
      '2026-12-01T00:00:00.000',
      '2026-10-05T00:00:00.000',
    )
    const history = before.prepare(
      `INSERT INTO status_history (application_id, changed_at, old_status, new_status, old_notes) VALUES (?, ?, ?, ?, ?)`,
    )
    history.run(3, '2026-10-01T10:00:00.000', 'applied', 'interviewing', 'first')
    history.run(3, '2026-10-01T11:00:00.000', 'interviewing', 'interviewing', 'second')
    history.run(3, '2026-10-02T09:00:00.000', 'interviewing', 'offer', '')
    before.close()

    const db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
    open.push(db)
    expect(db.pragma('user_version', {simple: true})).toBe(TRACKER_MIGRATIONS.at(-1)?.version)
    expect(db.pragma('foreign_key_check')).toEqual([])
    const service = new ApplicationService(new SqliteApplicationStore(db, file), steppingClock())

    const three = await service.get('3')
    expect(three.application).toMatchObject({id: 3, title: 'Three', status: 'offer', notes: 'n3', removed_at: null})
    expect(three.history.map((entry) => [entry.change, entry.old_status, entry.new_status, entry.old_notes])).toEqual([
      ['status', 'applied', 'interviewing', 'first'],
      ['notes', 'interviewing', 'interviewing', 'second'],
      ['status', 'interviewing', 'offer', ''],
    ])
    const seven = await service.find('https://example.org/7')
    expect(seven).toMatchObject({id: 7, posting_closed_at: '2026-10-05T00:00:00.000'})
    expect(db.prepare('SELECT snoozed_until FROM applications WHERE id = 7').pluck().get()).toBe(
      '2026-12-01T00:00:00.000',
    )

    // New applications come after the highest id there was; a purged id is not given again.
    await service.purge('7')
    const next = await service.record(application({url: 'https://example.org/8'}))
    expect(next.id).toBe(8)
    // The history still cascades with its application.
    await service.purge('3')
    expect(db.prepare('SELECT count(*) FROM status_history').pluck().get()).toBe(0)
  })
})

describe('a tracker database whose URL keys kept percent-escapes as written', () => {
  it('finds an application tracked as /%64up by /dup after the upgrade, and keeps both of two such spellings', async () => {
    const file = join(dir.path, 'jobagent.db')
    const before = openSqlite(file, {migrations: TRACKER_MIGRATIONS.filter((migration) => migration.version <= 12)})
    const insert = before.prepare(
      `INSERT INTO applications (id, url_key, canonical_key, url, title, company, source, applied_date, status, updated_at)
       VALUES (?, ?, ?, ?, ?, 'Acme', 'remoteok', '2026-10-01T09:00:00.000', 'applied', '2026-10-01T09:00:00.000')`,
    )
    // The keys as the release before made them: escapes as written.
    for (const [id, url, title] of [
      [1, 'https://example.org/%64up', 'Escaped'],
      [2, 'https://example.org/other%7e', 'Escaped alone'],
      [3, 'https://example.org/tw%6F', 'Escaped twice, first'],
      [4, 'https://example.org/two', 'Escaped twice, second'],
    ] as const) {
      insert.run(id, url, url, url, title)
    }
    before.close()

    const db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
    open.push(db)
    const service = new ApplicationService(new SqliteApplicationStore(db, file), steppingClock())
    expect((await service.find('https://example.org/dup')).id).toBe(1)
    expect((await service.find('https://example.org/other~')).id).toBe(2)
    await expect(service.record(application({url: 'https://example.org/dup'}))).rejects.toThrow(
      'already tracked as #1 https://example.org/%64up (status: applied)',
    )
    // Two applications the release before kept apart both stay, each found by its id; either spelling of the URL
    // finds the one that kept its key.
    expect((await service.find('3')).title).toBe('Escaped twice, first')
    expect((await service.find('4')).title).toBe('Escaped twice, second')
    expect((await service.find('https://example.org/tw%6F')).id).toBe(4)
    expect(db.prepare('SELECT count(*) FROM applications').pluck().get()).toBe(4)
  })
})

describe('a tracker database of the release before referrals', () => {
  it('keeps every application as it was, each with an empty referral, and takes referrals from there', async () => {
    const file = join(dir.path, 'jobagent.db')
    const before = openSqlite(file, {migrations: TRACKER_MIGRATIONS.filter((migration) => migration.version <= 13)})
    before
      .prepare(
        `INSERT INTO applications (id, url_key, canonical_key, url, title, company, source, applied_date, status, notes,
           updated_at, salary_expected)
         VALUES (5, 'https://example.org/5', 'https://example.org/5', 'https://example.org/5', 'Five', 'Acme',
           'remoteok', '2026-10-01T09:00:00.000', 'interviewing', 'call Tue', '2026-10-02T09:00:00.000', '€70k')`,
      )
      .run()
    before.close()

    const db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
    open.push(db)
    const service = new ApplicationService(new SqliteApplicationStore(db, file), steppingClock())
    expect(await service.find('5')).toMatchObject({
      id: 5,
      title: 'Five',
      status: 'interviewing',
      notes: 'call Tue',
      salary_expected: '€70k',
      referral: '',
    })
    const {current} = await service.edit('5', {referral: 'Ana Silva'})
    expect(current.referral).toBe('Ana Silva')
  })
})

describe('a tracker database of the release before next actions and documents (version 16)', () => {
  it('keeps every application with none of either, and sets and reads them after the upgrade', async () => {
    const file = join(dir.path, 'jobagent.db')
    const before = openSqlite(file, {migrations: TRACKER_MIGRATIONS.filter((migration) => migration.version <= 16)})
    const insert = before.prepare(
      `INSERT INTO applications (id, url_key, canonical_key, url, title, company, source, applied_date, status,
         notes, updated_at, referral, salary_expected)
       VALUES (?, ?, ?, ?, ?, 'Acme', 'remoteok', '2026-10-01T09:00:00.000', ?, ?, '2026-10-02T09:00:00.000', ?, ?)`,
    )
    insert.run(
      2,
      'https://example.org/2',
      'https://example.org/2',
      'https://example.org/2',
      'Two',
      'applied',
      'n2',
      'Ana',
      '€70k',
    )
    insert.run(
      5,
      'https://example.org/5',
      'https://example.org/5',
      'https://example.org/5',
      'Five',
      'offer',
      '',
      '',
      '',
    )
    before
      .prepare(
        `INSERT INTO status_history (application_id, changed_at, old_status, new_status, old_notes) VALUES (?, ?, ?, ?, ?)`,
      )
      .run(5, '2026-10-02T09:00:00.000', 'applied', 'offer', 'was applied')
    before.close()

    const db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
    open.push(db)
    expect(db.pragma('user_version', {simple: true})).toBe(TRACKER_MIGRATIONS.at(-1)?.version)
    const service = new ApplicationService(new SqliteApplicationStore(db, file), steppingClock())
    const {applications} = await service.list()
    expect(
      applications.map((one) => [one.id, one.title, one.status, one.notes, one.referral, one.salary_expected]),
    ).toEqual([
      [5, 'Five', 'offer', '', '', ''],
      [2, 'Two', 'applied', 'n2', 'Ana', '€70k'],
    ])
    for (const one of applications) {
      expect(one).toMatchObject({next_action: '', next_action_due: null, documents: []})
    }
    expect((await service.get('5')).history).toMatchObject([
      {old_status: 'applied', new_status: 'offer', old_notes: 'was applied'},
    ])

    await service.setNext('2', {action: 'send portfolio', due: '2026-12-05'})
    const document = {kind: 'cv', path: '/cv.pdf', sha256: 'ab'.repeat(32), copy: null, recorded_at: 'x'} as const
    await service.recordDocuments('2', [document])
    expect(await service.find('2')).toMatchObject({
      next_action: 'send portfolio',
      next_action_due: '2026-12-05',
      documents: [document],
      updated_at: '2026-10-02T09:00:00.000',
    })
  })
})

describe('a tracker database of the release before interviewers from the contacts (version 18)', () => {
  it('keeps every interview with its text of who, meeting no contact, and takes contacts after the upgrade', async () => {
    const file = join(dir.path, 'jobagent.db')
    const before = openSqlite(file, {migrations: TRACKER_MIGRATIONS.filter((migration) => migration.version <= 18)})
    before
      .prepare(
        `INSERT INTO applications (id, url_key, canonical_key, url, title, company, source, applied_date, status,
           notes, updated_at)
         VALUES (4, 'k', 'k', 'https://example.org/4', 'Four', 'Acme', 'hn', '2026-10-01T09:00:00.000', 'interviewing',
           '', '2026-10-02T09:00:00.000')`,
      )
      .run()
    before
      .prepare(
        `INSERT INTO interviews (application_id, starts_at, time_zone, utc_offset, kind, with_whom, notes, created_at)
         VALUES (4, '2026-10-05T10:00', 'Europe/Berlin', 120, 'video', 'Ann Lee, CTO', '', '2026-10-02T09:00:00.000')`,
      )
      .run()
    before.close()

    const db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
    open.push(db)
    const applications = new SqliteApplicationStore(db, file)
    const [interview] = await new SqliteInterviewStore(db, file, applications).ofApplication(4)
    expect(interview).toMatchObject({with: 'Ann Lee, CTO', interviewer_ids: [], interviewers: [], utc_offset: 120})
  })
})
