import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'
import {afterEach, describe, expect, it} from 'vitest'
import {silentLogger} from '../../src/core/logger.js'
import {type RunningServer, startServer} from '../../src/http/server.js'
import {runCli, tempDir} from '../helpers/cli.js'
import {type TestApi, testApi} from '../helpers/http.js'
import {readTracker, seedInterviews} from '../helpers/tracker.js'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function serving(api: TestApi): Promise<RunningServer> {
  const running = await startServer(api.app, {host: '127.0.0.1', port: 0, logger: silentLogger})
  cleanups.push(() => running.close())
  return running
}

function api(): TestApi {
  const created = testApi()
  cleanups.push(() => created.cleanup())
  return created
}

/** How long a request takes to be answered in full, in milliseconds, when it was, and its body. */
async function timed(url: string): Promise<{ms: number; doneAt: number; status: number; body: string}> {
  const started = performance.now()
  const response = await fetch(url)
  const body = await response.text()
  const doneAt = performance.now()
  return {ms: doneAt - started, doneAt, status: response.status, body}
}

describe('the interview calendar of a long job search', () => {
  // At about 1.4 ms per interview the calendar of 4,000 took over 5 s, and /health waited behind it.
  const INTERVIEWS = 4000

  it('answers /health within a second, before the calendar is done, while GET /interviews.ics of 4,000 interviews is written', async () => {
    const tracker = api()
    seedInterviews(tracker.home, INTERVIEWS)
    const server = await serving(tracker)
    // Opening the databases and loading the calendar library happen once, on the first requests.
    await timed(`${server.url}/health`)
    await timed(`${server.url}/interviews.ics`)
    const calendar = timed(`${server.url}/interviews.ics`)
    // The calendar's request is being answered when the health check comes in.
    await sleep(50)
    const health = await timed(`${server.url}/health`)
    const ics = await calendar
    expect(health.status).toBe(200)
    expect(health.ms).toBeLessThan(1000)
    expect(health.doneAt).toBeLessThan(ics.doneAt)
    expect(ics.status).toBe(200)
    expect(ics.body.match(/^BEGIN:VEVENT\r$/gm)).toHaveLength(INTERVIEWS)
    expect(ics.body.endsWith('END:VCALENDAR\r\n')).toBe(true)
  })

  it('writes the calendar of 4,000 interviews at less than a millisecond per interview', async () => {
    const tracker = api()
    seedInterviews(tracker.home, INTERVIEWS)
    const server = await serving(tracker)
    // The first answer loads the calendar library; the one measured is the next.
    await timed(`${server.url}/interviews.ics`)
    const ics = await timed(`${server.url}/interviews.ics`)
    expect(ics.body.match(/^BEGIN:VEVENT\r$/gm)).toHaveLength(INTERVIEWS)
    expect(ics.ms).toBeLessThan(INTERVIEWS)
  })
})

describe('importing a large CSV', () => {
  it('imports a 40 MB CSV within a 40 MB JavaScript heap, which held the whole file and every row before', async () => {
    // Given 4,000 applications with long notes (the longest allowed is 10,000 characters): a 40 MB file
    const home = tempDir('jobagent-big-import-')
    cleanups.push(() => home.cleanup())
    const note = 'Spoke with the recruiter about the role and the team; the next step is a call with the lead. '
      .repeat(110)
      .slice(0, 9900)
    const lines = ['title,company,location,url,source,applied_date,status,notes']
    for (let index = 0; index < 4000; index++) {
      lines.push(
        `Engineer ${index},Acme ${index % 97},Berlin,https://example.org/jobs/${index},manual,,applied,${note}`,
      )
    }
    const file = join(home.path, 'applications.csv')
    writeFileSync(file, `${lines.join('\r\n')}\r\n`)
    // When it is imported by a CLI whose heap may not grow past 40 MB (the file alone is as large)
    const result = await runCli(['import', file, '--json'], {
      home: home.path,
      env: {NODE_OPTIONS: '--max-old-space-size=40'},
      timeoutMs: 120_000,
    })
    // Then every row is stored, the notes whole
    expect(result.stderr).not.toContain('heap out of memory')
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({inserted: 4000})
    const {applications} = readTracker(home.path)
    expect(applications).toHaveLength(4000)
    expect(applications[3999]).toMatchObject({url: 'https://example.org/jobs/3999', notes: note})
  }, 180_000)
})
