import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {htmlToText} from '../../../src/core/jobs/description.js'
import type {JobResponse} from '../../../src/core/jobs/job.js'
import {recordRun} from '../../../src/core/jobs/run-changes.js'
import {openSqlite, type SqliteDatabase} from '../../../src/storage/sqlite/database.js'
import {SqliteDescriptionCache} from '../../../src/storage/sqlite/sqlite-description-cache.js'
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
  home = tempDir('jobagent-cache-')
  file = join(home.path, 'jobagent.db')
  db = openSqlite(file, {migrations: TRACKER_MIGRATIONS})
})
afterEach(() => {
  if (db.open) db.close()
  home.cleanup()
})

/** A cache whose fresh reads are counted: a read it answers from memory does not reach htmlToText. */
function countingCache(logger = memoryLogger('DEBUG').logger) {
  const fresh: unknown[] = []
  const cache = new SqliteDescriptionCache(db, file, logger, (html) => {
    fresh.push(html)
    return htmlToText(html)
  })
  return {cache, fresh}
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

/** Stores jobs as a run does, so their texts are held by stored jobs, with the pairs `cache` read since. */
async function storeJobs(jobs: JobResponse[], cache?: SqliteDescriptionCache): Promise<void> {
  const store = new SqliteJobStore(db, file)
  if (cache) store.writeWithEachRun(cache.writePending)
  const started = new Date().toISOString()
  await recordRun(
    store,
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
    {...closesNothing, found: foundJobs(jobs)},
  )
}

function cachedPairs(): number {
  return (db.prepare('SELECT count(*) AS n FROM description_sources').get() as {n: number}).n
}

describe('SqliteDescriptionCache', () => {
  it('reads HTML as htmlToText does, and the next search reads a description a stored job holds from there', async () => {
    const first = countingCache()
    expect(first.cache.toText(HTML)).toBe(TEXT)
    expect(cachedPairs()).toBe(0)
    await storeJobs([job('https://example.org/jobs/1', TEXT)], first.cache)
    expect(cachedPairs()).toBe(1)

    const next = countingCache()
    expect(next.cache.toText(HTML)).toBe(TEXT)
    expect(next.fresh).toEqual([])
  })

  it('writes nothing for a search whose jobs are never stored (a dry run, GET /jobs)', async () => {
    const search = countingCache()
    expect(search.cache.toText(HTML)).toBe(TEXT)
    await storeJobs([job('https://example.org/jobs/1', TEXT)])
    expect(cachedPairs()).toBe(0)
  })

  it('reads HTML that changed since', async () => {
    const first = countingCache()
    first.cache.toText(HTML)
    await storeJobs([job('https://example.org/jobs/1', TEXT)], first.cache)

    const next = countingCache()
    const changed = HTML.replace('SQLite', 'PostgreSQL')
    expect(next.cache.toText(changed)).toBe(TEXT.replace('SQLite', 'PostgreSQL'))
    expect(next.fresh).toEqual([changed])
  })

  it('reads HTML again when no stored job holds its text any more, and then lets the old pair go', async () => {
    const first = countingCache()
    first.cache.toText(HTML)
    // Stored, and the job's text changed since: no job holds the text the pair points to.
    await storeJobs([job('https://example.org/jobs/1', TEXT)], first.cache)
    await storeJobs([job('https://example.org/jobs/1', 'Another text')])

    const next = countingCache()
    expect(next.cache.toText(HTML)).toBe(TEXT)
    expect(next.fresh).toEqual([HTML])
    const other = '<p>Other</p>'
    next.cache.toText(other)
    await storeJobs([job('https://example.org/jobs/1', TEXT), job('https://example.org/jobs/2', 'Other')], next.cache)
    // The first write of a cache drops pairs no job backs, then adds its own (the HTML just read again, and other).
    expect(cachedPairs()).toBe(2)
  })

  it('remembers nothing for HTML without text, and passes what is not a string through', async () => {
    const {cache, fresh} = countingCache()
    expect(cache.toText('<p> </p>')).toBeNull()
    expect(cache.toText(undefined)).toBeNull()
    expect(cache.toText('   ')).toBeNull()
    await storeJobs([job('https://example.org/jobs/1', null)], cache)
    expect(cachedPairs()).toBe(0)
    expect(fresh).toEqual(['<p> </p>', undefined, '   '])
  })

  it('reads each description from its HTML when the database cannot be used', () => {
    const log = memoryLogger('DEBUG')
    const {cache, fresh} = countingCache(log.logger)
    db.close()
    expect(cache.toText(HTML)).toBe(TEXT)
    cache.writePending()
    expect(fresh).toEqual([HTML])
    expect(log.lines.some((line) => line.includes('descriptions: reading the saved reading failed'))).toBe(true)
    expect(log.lines.some((line) => line.includes('descriptions: saving the reading failed'))).toBe(true)
  })
})
