/** What several JSON boards share: the shapes of their pages, their paths, and readers of the values they send. */

import {z} from 'zod'
import type {BoardRef, SourceConfig} from '../core/jobs/source-config.js'
import {foldWhiteSpace} from '../core/text-runs.js'
import type {BoardPage} from './board-source.js'
import {isObject} from './shared.js'

/** `{"<key>": [...]}`, the one page of a board that answers with its jobs under one key. */
export function jobsUnder(key: string): z.ZodType<BoardPage, unknown> {
  return z.object({[key]: z.array(z.unknown())}).transform((body) => ({items: body[key] ?? []}))
}

/** `[...]`, the one page of a board that answers with a bare array of its jobs. */
export const bareArray: z.ZodType<BoardPage, unknown> = z.array(z.unknown()).transform((items) => ({items}))

export const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '')
export const nonEmptyStrings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '') : []
export const slugPath = (prefix: string) => (board: BoardRef) => `${prefix}${encodeURIComponent(board.slug)}`
export const fixedPath = (path: string) => () => path
export const publicUrl = (url: string) => () => url
/** The company's own host on an ATS that gives each company one (`https://{company}.teamtailor.com`). */
export const companyHost = (host: string) => (_config: SourceConfig, board: BoardRef) =>
  `https://${encodeURIComponent(board.slug)}.${host}`
export const names = (value: unknown): unknown[] =>
  Array.isArray(value) ? value.map((entry) => (isObject(entry) ? entry.name : entry)) : []

/** `London, England, United Kingdom`: the non-empty parts of a place, repeats left out. */
export function placeName(parts: readonly unknown[]): string {
  return [...new Set(nonEmptyStrings(parts).map((part) => part.trim()))].join(', ')
}

/** `remote` of a workplace type (Lever `remote`/`hybrid`/`onsite`, Ashby `Remote`/`Hybrid`/`OnSite`). */
export function workplace(value: unknown): boolean | null {
  const type = text(value)
    .toLowerCase()
    .replace(/[^a-z]/g, '')
  if (type === 'remote') return true
  if (type === 'onsite' || type === 'hybrid' || type === 'inoffice') return false
  return null
}

/**
 * `Remote (US)`, `Remote - Canada`, `Remote, EMEA`, `Germany (Remote)`, `US Remote`: the place after or before the
 * word. A dash separates only with a space beside it: `Remote-friendly office` is an office.
 */
const REMOTE_FROM =
  /^remote(?:\s*\((.*)\)|\s*\[(.*)\]|(?:\s*[:,/|]|\s+[-–—]|\s*[-–—]\s)\s*(.*))$|^(.*?)(?:\s*\(remote\)|(?:\s*[:,/|]|\s+[-–—]|\s*[-–—]\s)\s*remote|\s+remote)$/i

/**
 * Where a location that names remote work lets a candidate be: its place (`Remote (US)` is `US`), `''` for
 * `Remote` alone (anywhere); undefined for a location that is no remote one (an office).
 */
export function remoteRegion(location: string): string | undefined {
  // Only a location that starts or ends with the word can name remote work; any other is no remote one at once.
  const edges = `${location.slice(0, 6)} ${location.slice(-7)}`.toLowerCase()
  if (!edges.startsWith('remote') && !edges.endsWith('remote') && !edges.endsWith('remote)')) return undefined
  // White space folded first: REMOTE_FROM's `\s*` then takes at most one character wherever it is tried, so a long
  // run of spaces in a board's location is read once.
  const folded = foldWhiteSpace(location)
  if (/^remote$/i.test(folded)) return ''
  const match = REMOTE_FROM.exec(folded)
  if (!match) return undefined
  return (match[1] ?? match[2] ?? match[3] ?? match[4] ?? '').trim()
}
