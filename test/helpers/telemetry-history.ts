import type {TelemetryStore, TelemetryWindow} from '../../src/shipments/core/stores.js'
import {checkHistoryQuery, encodeCursor} from '../../src/shipments/core/telemetry-history.js'
import type {LatestTelemetry} from '../../src/shipments/core/unified-state.js'

const signal = new AbortController().signal

/** Every page of a shipment's history in `window`, following `next` until the store says none follow (at most 1000). */
export async function readAllPages(
  store: TelemetryStore,
  id: string,
  window: TelemetryWindow,
): Promise<{pages: LatestTelemetry[][]; documents: LatestTelemetry[]}> {
  const pages: LatestTelemetry[][] = []
  let after: string | undefined
  for (let page = 0; page < 1000; page++) {
    const answer = await store.history(id, {...window, ...(after === undefined ? {} : {after})}, signal)
    pages.push(answer.documents)
    if (answer.next === null) return {pages, documents: pages.flat()}
    // As a client would: the key travels as a cursor and passes the service's check on the way back.
    after = checkHistoryQuery({cursor: encodeCursor(answer.next)}).after
  }
  throw new Error('the store never said the last page had come')
}

/** `count` documents one minute apart from `start`, payload {n}, as the import takes them. */
export function minutes(id: string, start: string, count: number) {
  const first = Date.parse(start)
  return Array.from({length: count}, (_, n) => ({
    id,
    recorded_at: new Date(first + n * 60_000).toISOString(),
    payload: {n},
  }))
}
