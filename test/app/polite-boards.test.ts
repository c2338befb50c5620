import {describe, expect, it} from 'vitest'
import {PoliteBoards, type Sleep} from '../../src/app/polite-boards.js'
import {silentLogger} from '../../src/core/logger.js'
import {HttpError} from '../../src/http-client/index.js'
import type {BoardReader, ListRequest} from '../../src/sources/board-sweep.js'

/** A sleep whose waits are held until the test lets them go, so the test sees which waits run at the same time. */
function heldSleep() {
  const pending: {ms: number; release: () => void}[] = []
  const sleep: Sleep = (ms) => new Promise<void>((resolve) => pending.push({ms, release: resolve}))
  return {sleep, pending}
}

const listed = () => ({kind: 'listed' as const, jobs: [], etag: null, last_modified: null, answer_hash: null})

const settle = () => new Promise((resolve) => setImmediate(resolve))

function request(slug: string): ListRequest {
  return {
    config: {type: 'greenhouse', boards: [slug]} as unknown as ListRequest['config'],
    board: {slug} as unknown as ListRequest['board'],
    roleWords: [],
    previous: null,
    signal: new AbortController().signal,
  }
}

/** A reader that refuses each board's first request with a 429 and lists it on the next. */
function refusingOnce(retryAfterMs: number): BoardReader & {asked: string[]} {
  const asked: string[] = []
  return {
    asked,
    async list({board}) {
      const slug = (board as {slug: string}).slug
      asked.push(slug)
      if (asked.filter((one) => one === slug).length === 1) {
        throw new HttpError('HTTP 429', {url: `http://127.0.0.1/${slug}`, status: 429, retryAfterMs})
      }
      return listed()
    },
    async details() {
      return []
    },
  }
}

describe('PoliteBoards', () => {
  it('holds a platform once for refusals that arrive together, for the longest Retry-After, not their sum', async () => {
    const {sleep, pending} = heldSleep()
    const polite = new PoliteBoards({concurrency: 8, per_ats: 8}, sleep, silentLogger)
    const reader = refusingOnce(1000)
    const lists = ['a', 'b', 'c'].map((slug) =>
      polite.schedule('greenhouse', () => polite.list('greenhouse', slug, reader, request(slug))),
    )
    await settle()
    // All three boards were refused before any wait ended: their three waits run side by side.
    expect(pending.map((one) => one.ms)).toEqual([1000, 1000, 1000])
    expect(reader.asked).toEqual(['a', 'b', 'c'])
    pending[0]!.release()
    pending[1]!.release()
    await settle()
    // The platform is held until the last of them ends.
    expect(reader.asked).toEqual(['a', 'b', 'c'])
    pending[2]!.release()
    const outcomes = await Promise.all(lists)
    expect(outcomes.map((one) => one.outcome)).toEqual(['listed', 'listed', 'listed'])
    expect(reader.asked.slice(3).sort()).toEqual(['a', 'b', 'c'])
  })

  it('backs a platform off once for boards that fail together, and doubles it for failures after the pause', async () => {
    const {sleep, pending} = heldSleep()
    const polite = new PoliteBoards({concurrency: 8, per_ats: 8}, sleep, silentLogger)
    const unreachable: BoardReader = {
      list: async ({board}) => {
        throw new HttpError('network error: getaddrinfo ENOTFOUND', {url: `http://${(board as {slug: string}).slug}`})
      },
      details: async () => [],
    }
    const slugs = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']
    const first = slugs.map((slug) =>
      polite.schedule('greenhouse', () => polite.list('greenhouse', slug, unreachable, request(slug))),
    )
    expect((await Promise.all(first)).map((one) => one.outcome)).toEqual(slugs.map(() => 'failed'))
    // Eight failures in flight together: one back-off of 0.5 s, not eight doubling ones (up to 60 s).
    expect(pending.map((one) => one.ms)).toEqual([500])
    const next = polite.list('greenhouse', 'i', unreachable, request('i'))
    pending[0]!.release()
    expect((await next).outcome).toBe('failed')
    // A failure sent after the pause is the next in a row: the back-off doubles.
    expect(pending.map((one) => one.ms)).toEqual([500, 1000])
  })

  it('ends the pauses running when told no board is left, and waits out later ones as before', async () => {
    // A sleep that ends only when its signal aborts: what a pause of a minute looks like to a test.
    const started: number[] = []
    const sleep: Sleep = (ms, signal) =>
      new Promise<void>((resolve) => {
        started.push(ms)
        signal.addEventListener('abort', () => resolve(), {once: true})
      })
    const polite = new PoliteBoards({concurrency: 8, per_ats: 8}, sleep, silentLogger)
    const reader = refusingOnce(60_000)
    const list = polite.list('greenhouse', 'a', reader, request('a'))
    await settle()
    expect(started).toEqual([60_000])
    polite.endPauses()
    expect((await list).outcome).toBe('listed')
    const again = polite.list('greenhouse', 'b', refusingOnce(1000), request('b'))
    let ended = false
    void again.then(() => {
      ended = true
    })
    await settle()
    expect(started).toEqual([60_000, 1000])
    // A pause begun after endPauses is waited out: the board waits for it.
    expect(ended).toBe(false)
    polite.endPauses()
    expect((await again).outcome).toBe('listed')
  })

  it('holds other platforms not at all', async () => {
    const {sleep, pending} = heldSleep()
    const polite = new PoliteBoards({concurrency: 8, per_ats: 8}, sleep, silentLogger)
    const refused = refusingOnce(1000)
    const lever = polite.schedule('lever', () => polite.list('lever', 'x', refused, request('x')))
    await settle()
    expect(pending).toHaveLength(1)
    const calm: BoardReader = {list: async () => listed(), details: async () => []}
    const greenhouse = await polite.list('greenhouse', 'y', calm, request('y'))
    expect(greenhouse.outcome).toBe('listed')
    pending[0]!.release()
    expect((await lever).outcome).toBe('listed')
  })
})
