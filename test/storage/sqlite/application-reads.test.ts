import {join} from 'node:path'
import {setImmediate as nextTurn} from 'node:timers/promises'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {ApplicationService} from '../../../src/core/applications/application-service.js'
import {openSqlite, type SqliteDatabase} from '../../../src/storage/sqlite/database.js'
import {SqliteApplicationStore} from '../../../src/storage/sqlite/sqlite-application-store.js'
import {TRACKER_MIGRATIONS} from '../../../src/storage/sqlite/tracker-migrations.js'
import {tempDir} from '../../helpers/cli.js'
import {application} from '../../helpers/tracker.js'

let dir: ReturnType<typeof tempDir>
const open: SqliteDatabase[] = []

/** Two processes' worth of connections to one file: the server's and, say, a cron run's or the CLI's. */
function tracker() {
  const file = join(dir.path, 'jobagent.db')
  const db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
  open.push(db)
  return new ApplicationService(new SqliteApplicationStore(db, file))
}

beforeEach(() => {
  dir = tempDir('jobagent-app-reads-')
})

afterEach(() => {
  for (const db of open.splice(0)) db.close()
  dir.cleanup()
})

describe('application lookups beside other connections', () => {
  const url = 'https://example.org/jobs/1'

  it("sees another connection's status change from the next event-loop turn on", async () => {
    const server = tracker()
    const cli = tracker()
    await server.record(application({url}))
    expect((await server.status(url)).status).toBe('applied')
    await cli.changeStatus(url, 'interviewing', 'call on Tuesday')
    await nextTurn()
    expect(await server.status(url)).toMatchObject({status: 'interviewing', notes: 'call on Tuesday'})
  })

  it("sees another connection's new application after a not-found answer", async () => {
    const server = tracker()
    const cron = tracker()
    await expect(server.status(url)).rejects.toThrow('is not tracked')
    await cron.record(application({url}))
    await nextTurn()
    expect((await server.status(url)).url).toBe(url)
  })

  it('sees its own writes at once', async () => {
    const server = tracker()
    await server.record(application({url}))
    expect((await server.status(url)).status).toBe('applied')
    await server.changeStatus(url, 'offer')
    expect((await server.status(url)).status).toBe('offer')
    await server.import([{row: 1, value: application({url, status: 'accepted'})}], {update: true})
    expect((await server.status(url)).status).toBe('accepted')
  })

  it('hands out copies, so a caller changing its result changes nothing stored', async () => {
    const server = tracker()
    await server.record(application({url}))
    const first = await server.status(url)
    first.status = 'rejected'
    expect((await server.status(url)).status).toBe('applied')
  })
})

describe('applications tracked from a link with tracking parameters', () => {
  const clean = 'https://example.org/jobs/7'
  const shared = `${clean}?utm_source=linkedin`

  it('answer for the clean link of a job, and an application tracked under that link itself comes first', async () => {
    const file = join(dir.path, 'jobagent.db')
    const db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
    open.push(db)
    const store = new SqliteApplicationStore(db, file)
    const service = new ApplicationService(store)
    await service.record(application({url: shared, status: 'saved'}))
    expect((await store.trackedOf([clean])).get(clean)).toEqual({url: shared, status: 'saved'})
    expect(await store.appliedUrlKeys()).toEqual(new Set())
    await service.changeStatus(shared, 'applied')
    expect(await store.appliedUrlKeys()).toEqual(new Set([shared, clean]))
    // Tracking the clean link is refused now (one application per job); a database of an earlier release may hold
    // both, and then the one tracked under the link itself answers for it.
    await expect(service.record(application({url: clean, status: 'saved'}))).rejects.toThrow(
      `already tracked as #1 ${shared}`,
    )
    db.prepare(
      `INSERT INTO applications (url_key, canonical_key, url, title, company, source, applied_date, status, updated_at)
       VALUES (?, ?, ?, 'T', 'C', 'linkedin', '2026-11-01T00:00:00.000', 'saved', '2026-11-01T00:00:00.000')`,
    ).run(clean, clean, clean)
    expect((await store.trackedOf([clean])).get(clean)).toEqual({url: clean, status: 'saved'})
    expect((await service.find(clean)).url).toBe(clean)
    expect((await service.find(`${clean}?utm_medium=mail`)).url).toBe(clean)
    expect((await service.find(shared)).url).toBe(shared)
  })

  it('are found by the clean link in a database tracked before the key existed', async () => {
    const file = join(dir.path, 'jobagent.db')
    const before = openSqlite(file, {migrations: TRACKER_MIGRATIONS.filter((migration) => migration.version < 9)})
    before
      .prepare(
        `INSERT INTO applications (url_key, url, title, company, source, applied_date, status, updated_at)
         VALUES (?, ?, 'T', 'C', 'linkedin', '2026-11-01T00:00:00.000', 'applied', '2026-11-01T00:00:00.000')`,
      )
      .run(shared, shared)
    before.close()
    const db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
    open.push(db)
    const store = new SqliteApplicationStore(db, file)
    expect((await store.trackedOf([clean])).get(clean)).toEqual({url: shared, status: 'applied'})
    expect(await store.appliedUrlKeys()).toEqual(new Set([shared, clean]))
  })
})
