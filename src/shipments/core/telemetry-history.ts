import {findControl} from '../../core/control-characters.js'
import {type ErrorDetail, ValidationError} from '../../core/errors.js'
import {checkPage, type PageBounds, wholeNumberMessage} from '../../core/paging.js'
import type {TelemetryHistoryPage, TelemetryWindow} from './stores.js'
import {normaliseTimestamp} from './timestamps.js'
import type {LatestTelemetry} from './unified-state.js'

/** A page of one shipment's telemetry history (GET /shipments/{id}/telemetry, `jobagent shipment history`). */
export const TELEMETRY_PAGE: PageBounds = {defaultLimit: 100, maxLimit: 1000}

/** What a caller asks of a shipment's history; text as it comes from a query string or a flag. */
export interface HistoryQuery {
  /** ISO 8601; documents at or after it. */
  since?: string | undefined
  /** ISO 8601; documents strictly before it. */
  until?: string | undefined
  /** 1 to TELEMETRY_PAGE.maxLimit documents, as a number or its digits. */
  limit?: number | string | undefined
  /** `next_cursor` of the previous page, unchanged. */
  cursor?: string | undefined
}

/** The body of GET /shipments/{shipment_id}/telemetry and of `jobagent shipment history --json`. */
export interface TelemetryHistory {
  shipment_id: string
  /** The documents of this page, oldest first, each as UnifiedState.telemetry. */
  telemetry: LatestTelemetry[]
  count: number
  limit: number
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null
}

/** A date with an optional time and zone, as ISO 8601 writes it; epoch numbers are no ISO 8601. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]|$)/
const BASE64URL = /^[A-Za-z0-9_-]+$/

/**
 * The window a query names, or one ValidationError naming every bad parameter (400 on the API, exit 2 on the
 * command line). `since` is inclusive and `until` exclusive, so adjacent windows never share a document.
 */
export function checkHistoryQuery(query: HistoryQuery): TelemetryWindow {
  const problems: ErrorDetail[] = []
  const since = instant('since', query.since, problems)
  const until = instant('until', query.until, problems)
  if (since !== undefined && until !== undefined && since > until) {
    problems.push({field: 'until', message: `until (${until}) must not be before since (${since})`})
  }
  const limit = pageLimit(query.limit, problems)
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, problems)
  if (problems.length > 0) {
    throw new ValidationError(problems.map((problem) => problem.message).join('; '), {
      details: problems,
      hint: historyHint(new Set(problems.map((problem) => problem.field))),
    })
  }
  return {
    limit,
    ...(since === undefined ? {} : {since}),
    ...(until === undefined ? {} : {until}),
    ...(after === undefined ? {} : {after}),
  }
}

/** What to give instead, for the parameters that were refused only. */
function historyHint(fields: ReadonlySet<string | undefined>): string {
  const hints: string[] = []
  if (fields.has('since') || fields.has('until')) {
    hints.push('times are ISO 8601 (e.g. 2026-04-10T00:00:00Z), since no later than until')
  }
  if (fields.has('limit')) hints.push(`limit 1 to ${TELEMETRY_PAGE.maxLimit}`)
  if (fields.has('cursor')) {
    hints.push('a cursor is the next_cursor of the page before, as it was given; leave it out for the first page')
  }
  return hints.join('; ')
}

/**
 * The page of a history read that asked for `limit + 1` documents (every store does): the extra one only says that
 * more follow, and the key of the last one kept is where the next page starts.
 */
export function historyPage<Row>(
  rows: readonly Row[],
  limit: number,
  toDocument: (row: Row) => LatestTelemetry,
  key: (row: Row) => string,
): TelemetryHistoryPage {
  const page = rows.length > limit ? rows.slice(0, limit) : rows
  const last = page[page.length - 1]
  return {documents: page.map(toDocument), next: rows.length > limit && last !== undefined ? key(last) : null}
}

/** The opaque cursor of a store key: base64url, so it travels in a query string as it is. */
export function encodeCursor(key: string): string {
  return Buffer.from(key, 'utf8').toString('base64url')
}

/** What a cursor not made by encodeCursor (or not of this store) is refused with. */
export const BAD_CURSOR = 'cursor must be the next_cursor of an earlier page, unchanged'

/** A stored time a store keeps as a number (`n:`, any store) or a BSON date (`d:`, epoch milliseconds). */
const NUMBER_KEY = /^(?:n:[+-]?\d+(?:\.\d+)?|d:-?\d+)$/

/**
 * Whether `key` is one a store makes for the last document of a page: its time as the store holds it, that is ISO
 * 8601 text (`2026-03-01T10:00:00.000Z`, PostgreSQL's `2026-03-01 10:00:00.000123+00`), `s:` and such text (a
 * MongoDB time stored as text), or a number with its type tag. Anything else (`0`, `zzzz`, a NUL) was not made by
 * a store and would page from an arbitrary place.
 */
function isPageKey(key: string): boolean {
  if (NUMBER_KEY.test(key)) return true
  const time = key.startsWith('s:') ? key.slice(2) : key
  return ISO_DATE.test(time) && findControl(time) === undefined && normaliseTimestamp(time) !== undefined
}

function decodeCursor(cursor: string, problems: ErrorDetail[]): string | undefined {
  const key = BASE64URL.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : ''
  // Text that decodes to something else than it encodes back from was not made by encodeCursor.
  if (key !== '' && encodeCursor(key) === cursor && isPageKey(key)) return key
  problems.push({field: 'cursor', message: BAD_CURSOR})
  return undefined
}

function instant(field: string, text: string | undefined, problems: ErrorDetail[]): string | undefined {
  if (text === undefined) return undefined
  const time = ISO_DATE.test(text.trim()) ? normaliseTimestamp(text) : undefined
  if (time === undefined) {
    problems.push({
      field,
      message: `${field} must be an ISO 8601 time such as 2026-04-10T00:28:23Z, got ${JSON.stringify(text)}`,
    })
  }
  return time
}

function pageLimit(limit: number | string | undefined, problems: ErrorDetail[]): number {
  if (typeof limit === 'string' && !/^\d+$/.test(limit)) {
    const message = wholeNumberMessage('limit', {min: 1, max: TELEMETRY_PAGE.maxLimit}, JSON.stringify(limit))
    problems.push({field: 'limit', message})
    return TELEMETRY_PAGE.defaultLimit
  }
  try {
    return checkPage({limit: limit === undefined ? undefined : Number(limit)}, TELEMETRY_PAGE).limit
  } catch (error) {
    problems.push(...(error as ValidationError).details)
    return TELEMETRY_PAGE.defaultLimit
  }
}
