import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import Status from '../../commands/status.js'
import {tempDir} from '../helpers/cli.js'
import {runCommand} from '../helpers/run-command.js'
import {application, readTracker, seedTracker} from '../helpers/tracker.js'

let dir: ReturnType<typeof tempDir>
let home: string
const zone = process.env.TZ

const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/

beforeEach(async () => {
  dir = tempDir()
  home = dir.path
  await seedTracker(home, [application()])
  // A change recorded by an earlier version, without an offset.
  const db = new Database(join(home, 'jobagent.db'))
  db.prepare(
    `INSERT INTO status_history (application_id, changed_at, old_status, new_status, old_notes, change)
     VALUES (1, '2026-11-22T05:20:00.000', 'applied', 'applied', 'sent CV', 'notes')`,
  ).run()
  db.close()
})
afterEach(() => {
  if (zone === undefined) delete process.env.TZ
  else process.env.TZ = zone
  dir.cleanup()
})

/** A status change made where the clock of the machine shows this zone's time (Node reads TZ as it changes). */
async function changeIn(timeZone: string, status: string) {
  process.env.TZ = timeZone
  const result = await runCommand(Status, ['1', status], {home, env: {TZ: timeZone}})
  expect(result.code, result.stderr).toBe(0)
}

describe('status history times', () => {
  it('keep their UTC offset, so changes either side of a zone change read in the order they happened', async () => {
    await changeIn('Europe/Berlin', 'interviewing')
    await changeIn('America/New_York', 'offer')

    const stored = readTracker(home)
    const [old = '', berlin = '', newYork = ''] = stored.history.map((row) => String(row.changed_at))
    expect(old).toBe('2026-11-22T05:20:00.000')
    expect(berlin).toMatch(WITH_OFFSET)
    expect(berlin).toMatch(/\+0[12]:00$/)
    expect(newYork).toMatch(/-0[45]:00$/)
    // The later change reads earlier on the wall clock; its offset says it came after.
    expect(newYork.slice(0, 23) < berlin.slice(0, 23)).toBe(true)
    expect(Date.parse(newYork)).toBeGreaterThanOrEqual(Date.parse(berlin))
    // The record's own times stay local, without a zone.
    expect(stored.applications[0]?.updated_at).toMatch(LOCAL)
    expect(stored.applications[0]?.applied_date).toMatch(LOCAL)

    const json = JSON.parse((await runCommand(Status, ['1', '--json'], {home})).stdout)
    expect(json.history.map((change: {changed_at: string}) => change.changed_at)).toEqual([old, berlin, newYork])
    const shown = (await runCommand(Status, ['1'], {home})).stdout
    const history = shown.slice(shown.indexOf('History'))
    expect(history).toContain(`  ${old}  notes changed (notes were: sent CV)`)
    expect(history.indexOf(`  ${berlin}  applied -> interviewing`)).toBeGreaterThan(0)
    expect(history.indexOf(`  ${newYork}  interviewing -> offer`)).toBeGreaterThan(history.indexOf(berlin))
  })
})
