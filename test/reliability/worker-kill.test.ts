import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {IMPORT_EXAMPLE_SHIPMENTS, ROOT, tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'
import {openStream, type ServedWorkers, send, serveWorkers, steadyLoad, workerHolding} from '../helpers/workers.js'

const IDS = readFileSync(join(ROOT, 'examples/shipments/metadata.csv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split(',')[0] as string)
const CONCURRENCY = 4

/** What must not change between two answers for one shipment: everything but the time it was generated. */
function stateOf(body: string): unknown {
  const {shipment_id, metadata, telemetry, sources} = JSON.parse(body)
  return {shipment_id, metadata, telemetry, sources}
}

describe('serve --workers 2 with a worker killed under load', () => {
  let home: ReturnType<typeof tempDir>
  let served: ServedWorkers
  beforeAll(async () => {
    home = tempDir('jobagent-worker-kill-')
    expect((await runCommandLine(IMPORT_EXAMPLE_SHIPMENTS, {home: home.path})).code).toBe(0)
    served = await serveWorkers(home.path, 2)
  })
  afterAll(async () => {
    await served?.stop()
    home?.cleanup()
  })

  it('fails only requests in flight on the killed worker, answers none wrongly, and the stream resumes', async () => {
    const expected = new Map<string, unknown>()
    for (const id of IDS) {
      const answer = await send(`${served.url}/shipments/${id}/unified`)
      expect(answer.status).toBe(200)
      expected.set(id, stateOf(answer.body))
    }
    const stream = openStream(`${served.url}/shipments/${IDS[0]}/unified/events`)
    await stream.waitForEvents(1)
    const holder = workerHolding(served.port, await stream.localPort)
    expect([...served.workers().values()]).toContain(holder)

    let turn = 0
    const load = steadyLoad(CONCURRENCY, async () => {
      const id = IDS[turn++ % IDS.length] as string
      const answer = await send(`${served.url}/shipments/${id}/unified`)
      return {...answer, body: JSON.stringify({id, body: answer.body})}
    })
    await new Promise((resolve) => setTimeout(resolve, 500))
    const from = served.stderr().length
    process.kill(holder as number, 'SIGKILL')
    await stream.ended
    const resumed = openStream(`${served.url}/shipments/${IDS[0]}/unified/events`)
    await resumed.waitForEvents(1)
    resumed.close()
    await served.waitFor(/worker 3 \(pid \d+\) listening/, {from, timeoutMs: 40_000})
    await new Promise((resolve) => setTimeout(resolve, 500))
    const {answers, failures} = await load.stop()

    expect(stateOf(resumed.events[0] as string)).toEqual(expected.get(IDS[0] as string))
    const wrong = answers.filter((answer) => {
      const {id, body} = JSON.parse(answer.body)
      return answer.status !== 200 || JSON.stringify(stateOf(body)) !== JSON.stringify(expected.get(id))
    })
    expect(wrong).toEqual([])
    expect(failures.length).toBeLessThanOrEqual(CONCURRENCY)
    expect(answers.length).toBeGreaterThan(50)
    console.info(
      `worker kill: ${answers.length} lookups answered right, ${failures.length} failed (in flight on the killed ` +
        `worker: ${failures.map((failure) => failure.message).join(', ') || 'none'}), stream resumed`,
    )
  }, 60_000)
})
