import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {htmlToText} from '../../../src/core/jobs/description.js'
import type {JobResponse} from '../../../src/core/jobs/job.js'
import {openSqlite, type SqliteDatabase} from '../../../src/storage/sqlite/database.js'
import {DescriptionMemo} from '../../../src/storage/sqlite/description-memo.js'
import {SqliteJobStore} from '../../../src/storage/sqlite/sqlite-job-store.js'
import {TRACKER_MIGRATIONS} from '../../../src/storage/sqlite/tracker-migrations.js'
import {tempDir} from '../../helpers/cli.js'
import {closesNothing, foundJobs, noDetails} from '../../helpers/job-details.js'
import {memoryLogger} from '../../helpers/memory-log.js'

const HTML = '<p>Build &amp; run <b>services</b>.</p><ul><li>TypeScript</li><li>SQLite</li></ul>'
const TEXT = 'Build & run services.\n\n- TypeScript\n- SQLite'

let home: {path: string; cleanup: () => void}
let file: string
let db: SqliteDatabase

beforeEach(() => {
  home = tempDir('jobagent-memo-')
  file = join(home.path, 'jobagent.db')
  db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
})
afterEach(() => {
  if (db.open) db.close()
  home.cleanup()
})

/** A memo whose fresh reads are counted: a read it answers from memory does not reach htmlToText. */
function countingMemo(logger = memoryLogger('DEBUG').logger) {
  const fresh: unknown[] = []
  const memo = new DescriptionMemo(db, file, logger, (html) => {
    fresh.push(html)
    return htmlToText(html)
  })
  return {memo, fresh}
}

function job(url: string, description: string | null): JobResponse {
  return {
    title: 'Engineer',
    company: 'Acme',
    location: 'Remote',
    url,
    source: 'remotive',
    posted_date: null,
    ...noDetails(),
    description,
  }
}

/** Stores jobs as a run does, so their texts are held by stored jobs, with the pairs `memo` read since. */
async function storeJobs(jobs: JobResponse[], memo?: DescriptionMemo): Promise<void> {
  const store = new SqliteJobStore(db, file)
  if (memo) store.writeWithEachRun(memo.writePending)
  const started = new Date().toISOString()
  await store.saveRun(
    {
      started_at: started,
      finished_at: started,
      status: 'ok',
      mode: 'production',
      jobs_found: jobs.length,
      new_jobs: 0,
      notified: 0,
      sources: [],
      error: null,
    },
    foundJobs(jobs),
    closesNothing,
  )
}

function remembered(): number {
  return (db.prepare('SELECT count(*) AS n FROM description_sources').get() as {n: number}).n
}

describe('DescriptionMemo', () => {
  it('reads HTML as htmlToText does, and the next search reads a description a stored job holds from there', async () => {
    const first = countingMemo()
    expect(first.memo.read(HTML)).toBe(TEXT)
    expect(remembered()).toBe(0)
    await storeJobs([job('https://example.org/jobs/1', TEXT)], first.memo)
    expect(remembered()).toBe(1)

    const next = countingMemo()
    expect(next.memo.read(HTML)).toBe(TEXT)
    expect(next.fresh).toEqual([])
  })

  it('writes nothing for a search whose jobs are never stored (a dry run, GET /jobs)', async () => {
    const search = countingMemo()
    expect(search.memo.read(HTML)).toBe(TEXT)
    await storeJobs([job('https://example.org/jobs/1', TEXT)])
    expect(remembered()).toBe(0)
  })

  it('reads HTML that changed since', async () => {
    const first = countingMemo()
    first.memo.read(HTML)
    await storeJobs([job('https://example.org/jobs/1', TEXT)], first.memo)

    const next = countingMemo()
    const changed = HTML.replace('SQLite', 'PostgreSQL')
    expect(next.memo.read(changed)).toBe(TEXT.replace('SQLite', 'PostgreSQL'))
    expect(next.fresh).toEqual([changed])
  })

  it('reads HTML again when no stored job holds its text any more, and then lets the old pair go', async () => {
    const first = countingMemo()
    first.memo.read(HTML)
    // Stored, and the job's text changed since: no job holds the text the pair points to.
    await storeJobs([job('https://example.org/jobs/1', TEXT)], first.memo)
    await storeJobs([job('https://example.org/jobs/1', 'Another text')])

    const next = countingMemo()
    expect(next.memo.read(HTML)).toBe(TEXT)
    expect(next.fresh).toEqual([HTML])
    const other = '<p>Other</p>'
    next.memo.read(other)
    await storeJobs([job('https://example.org/jobs/1', TEXT), job('https://example.org/jobs/2', 'Other')], next.memo)
    // The first write of a memo drops pairs no job backs, then adds its own (the HTML just read again, and other).
    expect(remembered()).toBe(2)
  })

  it('remembers nothing for HTML without text, and passes what is not a string through', async () => {
    const {memo, fresh} = countingMemo()
    expect(memo.read('<p> </p>')).toBeNull()
    expect(memo.read(undefined)).toBeNull()
    expect(memo.read('   ')).toBeNull()
    await storeJobs([job('https://example.org/jobs/1', null)], memo)
    expect(remembered()).toBe(0)
    expect(fresh).toEqual(['<p> </p>', undefined, '   '])
  })

  it('reads each description from its HTML when the database cannot be used', () => {
    const log = memoryLogger('DEBUG')
    const {memo, fresh} = countingMemo(log.logger)
    db.close()
    expect(memo.read(HTML)).toBe(TEXT)
    memo.writePending()
    expect(fresh).toEqual([HTML])
    expect(log.lines.some((line) => line.includes('descriptions: reading the remembered text failed'))).toBe(true)
    expect(log.lines.some((line) => line.includes('descriptions: remembering what was read failed'))).toBe(true)
  })
})
