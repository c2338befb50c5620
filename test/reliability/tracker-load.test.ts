import {setTimeout as sleep} from 'node:timers/promises'
import {afterEach, describe, expect, it} from 'vitest'
import {silentLogger} from '../../src/core/logger.js'
import {type RunningServer, startServer} from '../../src/http/server.js'
import {type TestApi, testApi} from '../helpers/http.js'
import {seedInterviews} from '../helpers/tracker.js'

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
