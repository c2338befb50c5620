import {writeFileSync} from 'node:fs'
import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterEach, describe, expect, it} from 'vitest'
import {type CliResult, runCli, tempDir} from '../helpers/cli.js'
import {serveBuilt} from '../helpers/serve.js'
import {application, readTracker, seedTracker} from '../helpers/tracker.js'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A RemoteOK-shaped board with `count` jobs: each run stores them all in one write transaction. */
async function board(count: number): Promise<string> {
  const jobs = Array.from({length: count}, (_, n) => ({
    id: String(n),
    position: `Engineer ${n}`,
    company: `Company ${n % 311}`,
    location: 'Remote',
    url: `https://remoteok.com/remote-jobs/job-${n}`,
    date: '2026-11-01T00:00:00+00:00',
  }))
  const body = JSON.stringify([{legal: 'API Terms of Service'}, ...jobs])
  const server = createServer((_request, response) => {
    response.writeHead(200, {'content-type': 'application/json'}).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** The built `jobagent serve`, killed after the test; its access log is kept for the assertions. */
async function serve(dir: string) {
  const server = await serveBuilt(dir)
  cleanups.push(server.stop)
  return server
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Runs `work` on every item with at most `limit` at a time. */
async function inPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T)
  }
  await Promise.all(Array.from({length: limit}, worker))
}

const range = (count: number) => Array.from({length: count}, (_, n) => n)
const apiUrl = (n: number) => `https://example.org/api/${n}`
const cliUrl = (n: number) => `https://example.org/cli/${n}`
const SHARED = 'https://example.org/shared'
const NEW_RECORDS = 120

describe('one database, every writer at once', () => {
  it('loses no update, reports no lock, and keeps every status change in the history', async () => {
    const home = tempDir('jobagent-concurrency-')
    cleanups.push(home.cleanup)
    const dir = home.path
    const jobsOnBoard = 5000
    const boardUrl = await board(jobsOnBoard)
    writeFileSync(join(dir, 'config.json'), JSON.stringify({sources: [{type: 'remoteok', url: boardUrl}]}), {
      mode: 0o600,
    })
    const perSide = 6
    await seedTracker(dir, [
      ...range(perSide).map((n) => application({url: apiUrl(n)})),
      ...range(perSide).map((n) => application({url: cliUrl(n)})),
      application({url: SHARED}),
    ])
    const server = await serve(dir)

    const answers: {what: string; status: number; body: string}[] = []
    const request = async (what: string, method: string, path: string, body: object) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: {'content-type': 'application/json'},
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      })
      answers.push({what, status: response.status, body: await response.text()})
      return response.status
    }
    const statusPath = (url: string) => `/applications/${encodeURIComponent(url)}/status`
    // Notes written to the shared record by each side, in the order each side's writes were acknowledged.
    const sharedNotes: string[] = []
    let busy = true

    // The API: three changes on each of its records, new records, and changes to the shared record until the
    // CLI and the runs are done. Short pauses spread the writes over the whole test, so they meet the runs.
    const api = async () => {
      const changes = inPool(range(perSide), 4, async (n) => {
        for (const [step, status] of ['interviewing', 'offer', 'accepted'].entries()) {
          await request('PATCH', 'PATCH', statusPath(apiUrl(n)), {status, notes: `api ${n} ${step + 1}`})
          await pause(20)
        }
      })
      const posts = inPool(range(NEW_RECORDS), 4, async (n) => {
        const body = {title: 'New', company: 'Acme', location: '', url: `https://example.org/new/${n}`, source: 'api'}
        await request('POST', 'POST', '/applications', body)
        await pause(20)
      })
      const shared = (async () => {
        for (let k = 0; busy; k++) {
          const notes = `api shared ${k}`
          const status = await request('PATCH shared', 'PATCH', statusPath(SHARED), {status: 'interviewing', notes})
          if (status === 200) sharedNotes.push(notes)
          await pause(50)
        }
      })()
      await Promise.all([changes, posts, shared])
    }

    // The CLI: `jobagent status` processes, two at a time, on its own records and on the shared one.
    const cliResults: CliResult[] = []
    const status = async (url: string, newStatus: string, notes: string) => {
      const result = await runCli(['status', url, newStatus, '--notes', notes], {home: dir, timeoutMs: 60_000})
      cliResults.push(result)
      return result.code
    }
    const cli = async () => {
      await inPool(range(perSide), 2, async (n) => {
        await status(cliUrl(n), 'offer', `cli ${n} 1`)
        await status(cliUrl(n), 'rejected', `cli ${n} 2`)
        if (n % 2 === 0 && (await status(SHARED, 'offer', `cli shared ${n}`)) === 0) sharedNotes.push(`cli shared ${n}`)
      })
    }

    // `jobagent run`, one after the other (the run lock allows no overlap), for as long as the CLI is busy.
    const runResults: CliResult[] = []
    const runs = async (cliDone: Promise<void>) => {
      let done = false
      void cliDone.then(() => {
        done = true
      })
      while (!done || runResults.length < 2) {
        runResults.push(await runCli(['run', '--quiet'], {home: dir, timeoutMs: 60_000}))
      }
    }

    const started = performance.now()
    const cliDone = cli()
    const runsDone = runs(cliDone)
    const apiDone = api()
    await Promise.all([cliDone, runsDone])
    busy = false
    await apiDone
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    server.child.kill('SIGTERM')
    await new Promise((resolve) => server.child.once('close', resolve))
    const sharedByApi = sharedNotes.filter((notes) => notes.startsWith('api')).length
    console.info(
      `${runResults.length} runs, ${cliResults.length} CLI changes, ${answers.length} API writes ` +
        `(${sharedByApi} on the shared record), in ${seconds} s`,
    )

    // Nobody saw an error, a lock or a timeout.
    expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 201)).toEqual([])
    expect(answers.filter((answer) => /locked/i.test(answer.body))).toEqual([])
    expect(cliResults.filter((result) => result.code !== 0 || result.stderr !== '')).toEqual([])
    expect(runResults.filter((result) => result.code !== 0 || result.stderr !== '')).toEqual([])
    expect(runResults.length).toBeGreaterThanOrEqual(2)
    expect(server.stderr()).not.toMatch(/locked|\| ERROR \|| 5\d\d \d/)

    // No update lost: every record holds its last change, and every change is in its history, in order.
    const {applications, history} = readTracker(dir)
    const byUrl = new Map(applications.map((row) => [row.url as string, row]))
    const historyOf = (url: string) => history.filter((change) => change.application_id === byUrl.get(url)?.id)
    for (const n of range(perSide)) {
      expect(byUrl.get(apiUrl(n))).toMatchObject({status: 'accepted', notes: `api ${n} 3`})
      expect(historyOf(apiUrl(n)).map((change) => [change.old_status, change.new_status, change.old_notes])).toEqual([
        ['applied', 'interviewing', ''],
        ['interviewing', 'offer', `api ${n} 1`],
        ['offer', 'accepted', `api ${n} 2`],
      ])
      expect(byUrl.get(cliUrl(n))).toMatchObject({status: 'rejected', notes: `cli ${n} 2`})
      expect(historyOf(cliUrl(n)).map((change) => [change.old_status, change.new_status, change.old_notes])).toEqual([
        ['applied', 'offer', ''],
        ['offer', 'rejected', `cli ${n} 1`],
      ])
    }
    for (const n of range(NEW_RECORDS)) expect(byUrl.has(`https://example.org/new/${n}`)).toBe(true)
    expect(applications).toHaveLength(2 * perSide + 1 + NEW_RECORDS)

    // Every run stored the board's jobs and completed.
    const db = new Database(join(dir, 'jobagent.db'), {readonly: true})
    const runRows = db.prepare('SELECT status, jobs_found FROM runs').all()
    const storedJobs = db.prepare('SELECT count(*) FROM jobs').pluck().get()
    db.close()
    expect(runRows).toEqual(runResults.map(() => ({status: 'ok', jobs_found: jobsOnBoard})))
    expect(storedJobs).toBe(jobsOnBoard)

    // The shared record was changed by both sides in turn: each change saw the one before it (its old notes are
    // the notes the previous change wrote), so the history chains through every acknowledged change.
    const shared = historyOf(SHARED)
    expect(shared).toHaveLength(sharedNotes.length)
    expect(sharedNotes.some((notes) => notes.startsWith('api'))).toBe(true)
    expect(sharedNotes.some((notes) => notes.startsWith('cli'))).toBe(true)
    const chained = [...shared.slice(1).map((change) => change.old_notes), byUrl.get(SHARED)?.notes]
    expect([...chained].sort()).toEqual([...sharedNotes].sort())
    for (let index = 1; index < shared.length; index++) {
      expect(shared[index]?.old_status).toBe(shared[index - 1]?.new_status)
    }
  }, 180_000)
})
