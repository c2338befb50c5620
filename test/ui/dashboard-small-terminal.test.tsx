import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {afterEach, describe, expect, it} from 'vitest'
import {KEY_HELP} from '../../src/ui/keys.js'
import {type Home, job, KEYS, renderDashboard, saveRun, tempHome, track} from './harness.js'

// The smallest common terminal: 80 columns, 24 rows. Nothing may be cut that the user needs, and no line may wrap.
let home: Home | undefined
let server: Server | undefined
let unmount: (() => void) | undefined

afterEach(async () => {
  unmount?.()
  unmount = undefined
  await home?.cleanup()
  home = undefined
  server?.closeAllConnections()
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
  server = undefined
})

async function dashboard(sources: Record<string, unknown>[] = []) {
  home = tempHome({sources})
  await saveRun(
    home.context,
    Array.from({length: 30}, (_, index) => job(index + 1)),
  )
  await track(home.context, job(1), 'interviewing', 'call on Tuesday')
  const ui = renderDashboard(home.context)
  unmount = ui.unmount
  ui.resize(80, 24)
  await ui.until('row 1 of')
  return ui
}

const lines = (frame: string) => frame.split('\n')
const widest = (frame: string) => Math.max(...lines(frame).map((line) => line.length))

describe('dashboard at 80x24', () => {
  it('shows every key of the help in full, each on its own line', async () => {
    const ui = await dashboard()
    ui.press('?')
    await ui.until('Keys')
    const frame = ui.frame()
    expect(widest(frame)).toBeLessThanOrEqual(80)
    expect(lines(frame)).toHaveLength(23)
    for (const entry of KEY_HELP) {
      expect(lines(frame).some((line) => line.trimEnd().endsWith(entry.description))).toBe(true)
    }
    expect(frame).not.toContain('…')
  })

  it('shows the hint of every prompt in full on the last line', async () => {
    const ui = await dashboard()
    ui.press(KEYS.tab)
    await ui.until('[Applications 1]')
    ui.press('E')
    await ui.until('Edit #1')
    expect(lines(ui.frame()).at(-1)).toMatch(/^type the field · .* · Esc cancel$/)
    expect(widest(ui.frame())).toBeLessThanOrEqual(80)
    ui.press(KEYS.escape)
    ui.press('t')
    await ui.until('Funnel of 1 application(s)')
    await ui.until('Median time to first response: unknown')
    expect(ui.frame()).toContain('Response rate 100.0% (1 of 1 applied for moved on)\n')
    expect(ui.frame()).not.toContain('…')
  })

  it('keeps the outcome of a search with a failed board on one status line', async () => {
    server = createServer((request, response) => {
      if (!request.url?.startsWith('/api')) return void response.writeHead(404).end('not here')
      response.writeHead(200, {'content-type': 'application/json'})
      response.end(JSON.stringify([{legal: 'x'}, ...Array.from({length: 120}, (_, n) => remoteOkJob(n))]))
    })
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const ui = await dashboard([
      {type: 'remoteok', url: `${base}/api`},
      {type: 'remoteok', name: 'weworkremotely', url: `${base}/missing/api`},
    ])
    ui.press('r')
    await ui.until('Search done')
    const frame = lines(ui.frame())
    expect(frame).toHaveLength(23)
    expect(frame.at(-2)).toMatch(
      /^Search done: 120 job\(s\), 120 new · 1\/2 boards answered \(failed: weworkremotely\)$/,
    )
    expect(frame.at(-1)).toMatch(/^Tab view/)
    expect(widest(ui.frame())).toBeLessThanOrEqual(80)
  })
})

function remoteOkJob(n: number) {
  return {
    id: String(n),
    position: `Developer ${n}`,
    company: 'Acme',
    location: '',
    url: `https://remoteok.com/remote-jobs/${n}`,
    date: '2026-11-20T00:00:00+00:00',
    epoch: 1763596800,
  }
}
