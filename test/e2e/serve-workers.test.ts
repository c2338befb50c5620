import {writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {IMPORT_EXAMPLE_SHIPMENTS, runCli, tempDir} from '../helpers/cli.js'
import {type MockServer, startMockServer} from '../helpers/mock-board.js'
import {runCommandLine} from '../helpers/run-command.js'
import {application, readTracker} from '../helpers/tracker.js'
import {openStream, type ServedWorkers, scrapeWorkers, send, serveWorkers, steadyLoad} from '../helpers/workers.js'

let home: ReturnType<typeof tempDir>
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/**
 * One primary and its two workers for the whole file (starting them is most of its time), over the example
 * shipments and a board that answers after a while; the last test stops them with SIGTERM.
 */
describe('jobagent serve --workers 2', () => {
  let served: ServedWorkers
  let board: MockServer
  let searched: () => void = () => {}
  const searching = new Promise<void>((resolve) => (searched = resolve))
  beforeAll(async () => {
    home = tempDir('jobagent-e2e-workers-')
    expect((await runCommandLine(IMPORT_EXAMPLE_SHIPMENTS, {home: home.path})).code).toBe(0)
    board = await startMockServer(async (_request, response) => {
      searched()
      await new Promise((resolve) => setTimeout(resolve, 1500))
      response.writeHead(200, {'content-type': 'application/rss+xml'})
      response.end('<?xml version="1.0"?><rss version="2.0"><channel><title>slow</title></channel></rss>')
    })
    writeFileSync(
      join(home.path, 'config.json'),
      JSON.stringify({sources: [{type: 'rss', name: 'slow', url: `${board.url}/feed.rss`}]}),
      {mode: 0o600},
    )
    served = await serveWorkers(home.path, 2)
  })
  afterAll(async () => {
    await served?.stop()
    await board?.close()
    home.cleanup()
  })

  it('starts two workers on one port; every scrape of /metrics is labelled with the one worker that answered', async () => {
    expect([...served.workers().keys()]).toEqual([1, 2])
    const scrapes = await scrapeWorkers(served.url, 2)
    expect([...scrapes.keys()].sort()).toEqual(['1', '2'])
    for (const [worker, text] of scrapes) {
      expect(text).toContain(`process_cpu_user_seconds_total{worker="${worker}"}`)
      expect(text).toContain(`jobagent_applications_recorded_total{worker="${worker}"} 0`)
    }
    // A scraper that keeps its connection (as Prometheus does) still sees the workers in turn.
    const seen = new Set<string | undefined>()
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${served.url}/metrics`)
      expect(response.headers.get('connection')).toBe('close')
      seen.add(/worker="(\d+)"/.exec(await response.text())?.[1])
    }
    expect([...seen].sort()).toEqual(['1', '2'])
  })

  it('keeps every acknowledged write when POST /applications reaches both workers at once', async () => {
    const answers = await Promise.all(
      Array.from({length: 40}, (_, i) =>
        send(`${served.url}/applications`, {
          method: 'POST',
          body: application({url: `https://jobs.example.org/${i}`}),
        }),
      ),
    )
    const recorded = answers.filter((answer) => answer.status === 201)
    expect(recorded.length).toBe(40)
    const rows = readTracker(home.path).applications.map((row) => row.url)
    for (const answer of recorded) expect(rows).toContain(JSON.parse(answer.body).application.url)
    expect(rows).toHaveLength(40)
    // Both workers wrote: their counters add up to every write.
    const scrapes = await scrapeWorkers(served.url, 2)
    const counts = [...scrapes.values()].map((text) =>
      Number(/jobagent_applications_recorded_total\{worker="\d+"\} (\d+)/.exec(text)?.[1]),
    )
    expect(counts.every((count) => count > 0)).toBe(true)
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(40)
  })

  it('replaces a worker killed with SIGKILL, says so in the log, and the new worker answers', async () => {
    const pid = served.workers().get(1) as number
    const from = served.stderr().length
    process.kill(pid, 'SIGKILL')
    await served.waitFor(
      new RegExp(
        `WARNING \\| jobagent\\.server \\| worker 1 \\(pid ${pid}\\) was killed by SIGKILL; starting a new one in 1 s`,
      ),
      {from},
    )
    await served.waitFor(/worker 3 \(pid \d+\) listening/, {from})
    expect([...(await scrapeWorkers(served.url, 2)).keys()].sort()).toEqual(['2', '3'])
  })

  it('reloads the workers one at a time on SIGHUP without a failed request under steady load', async () => {
    const load = steadyLoad(4, () => send(`${served.url}/applications`))
    await new Promise((resolve) => setTimeout(resolve, 300))
    const from = served.stderr().length
    process.kill(served.pid, 'SIGHUP')
    // Two workers start one after the other while the load runs: on a busy machine that takes a while.
    await served.waitFor(/reloaded 2 worker\(s\)/, {from, timeoutMs: 50_000})
    await new Promise((resolve) => setTimeout(resolve, 300))
    const {answers, failures} = await load.stop()
    expect(failures.map((failure) => failure.message)).toEqual([])
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([])
    expect(answers.length).toBeGreaterThan(20)
    expect([...(await scrapeWorkers(served.url, 2)).keys()].sort()).toEqual(['4', '5'])
    // Each new worker listened before its old one was asked to drain.
    const log = served.stderr().slice(from)
    expect(log.indexOf('worker 4 (pid')).toBeLessThan(log.indexOf('SIGTERM received'))
  }, 60_000)

  it('drains on SIGTERM: a search in flight is answered, an event stream is closed, and the primary exits 0', async () => {
    const stream = openStream(`${served.url}/shipments/SHP-1001/unified/events`)
    cleanups.push(stream.close)
    await stream.waitForEvents(1)
    expect(JSON.parse(stream.events[0] as string).shipment_id).toBe('SHP-1001')
    const search = send(`${served.url}/jobs`)
    await searching
    process.kill(served.pid, 'SIGTERM')
    const answer = await search
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body).sources).toEqual([expect.objectContaining({name: 'rss:slow', ok: true})])
    await stream.ended
    expect(await served.exit).toEqual({code: 0, signal: null})
    expect(served.stderr()).toMatch(/SIGTERM received: draining 2 worker\(s\)/)
    expect(served.stderr()).not.toMatch(/ERROR/)
  })
})

describe('jobagent serve --workers refusals', () => {
  beforeEach(() => {
    home = tempDir('jobagent-e2e-workers-')
    cleanups.push(home.cleanup)
  })

  it('waits longer each time a replacement dies at start, and stops with 0 on SIGTERM meanwhile', async () => {
    const served = await serveWorkers(home.path, 2)
    cleanups.push(served.stop)
    // From now on a new worker refuses the configuration file and exits 2 before it listens.
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({no_such_key: true}), {mode: 0o600})
    const pid = served.workers().get(1) as number
    process.kill(pid, 'SIGKILL')
    await served.waitFor(/worker 1 \(pid \d+\) was killed by SIGKILL; starting a new one in 1 s/)
    // The schedule beyond the doubling (the cap, the reset after a healthy life) is test/http/workers.test.ts's.
    await served.waitFor(/worker 3 \(pid \d+\) exited with code 2; starting a new one in 2 s/)
    expect(served.stderr()).toContain('no_such_key')
    expect((await send(`${served.url}/health`)).status).toBe(200)
    process.kill(served.pid, 'SIGTERM')
    expect(await served.exit).toEqual({code: 0, signal: null})
    expect(served.stderr()).not.toMatch(/worker 4/)
  }, 60_000)

  it('refuses --workers 0 and --workers x with an error and a hint (exit 2)', async () => {
    for (const value of ['0', 'x', '1.5']) {
      const result = await runCommandLine(['serve', '--workers', value], {home: home.path})
      expect(result.code).toBe(2)
      expect(result.stderr).toContain(
        `Error: invalid --workers "${value}": it takes a whole number of 1 or more, or auto`,
      )
      expect(result.stderr).toContain('Hint: use --workers auto')
    }
  })

  it('refuses a bad binding in the primary, and exits 1 with the worker error when the port is taken', async () => {
    const refused = await runCli(['serve', '--workers', '2', '--host', '0.0.0.0'], {home: home.path})
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('Error: refusing to listen on 0.0.0.0 without an API token')
    expect(refused.stderr).not.toContain('worker 1')

    const holder = createServer()
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => new Promise<void>((resolve) => holder.close(() => resolve())))
    const port = (holder.address() as {port: number}).port
    const taken = await runCli(['serve', '--workers', '2', '--port', String(port)], {home: home.path})
    expect(taken.code).toBe(1)
    expect(taken.stderr).toContain(`Error: port ${port} on 127.0.0.1 is already in use`)
    expect(taken.stderr).toMatch(/worker 1 \(pid \d+\) exited with code 1 before it listened; no worker can start/)
    expect(taken.stderr.match(/already in use/g)).toHaveLength(1)
  })
})
