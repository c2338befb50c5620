/**
 * Found boards as `sources` entries: the entry that searches one, and a `sources` list with found boards added to
 * it, each slug in the list of an entry of its type that is there already, never twice.
 */

import type {RecognisedBoard} from './board-urls.js'
import {
  type BoardListKey,
  type BoardRef,
  boardListKey,
  boardSlugs,
  type SourceConfig,
  sourceName,
} from './source-config.js'

/** A board to add: what its URL or a probe found, with the company name to show when the board carries none. */
export interface BoardToAdd extends RecognisedBoard {
  company?: string
}

/** `{"type": "greenhouse", "boards": ["acme"]}`. */
export function boardEntry(board: BoardToAdd): SourceConfig {
  return {
    type: board.type,
    ...(board.region ? {region: board.region} : {}),
    [listOf(board)]: [boardRefOf(board)],
  }
}

/** The list of an ATS's entry that names its boards; every type of the ATS table has one. */
function listOf(board: BoardToAdd): BoardListKey {
  const listKey = boardListKey(board.type)
  if (listKey === undefined) throw new Error(`${board.type} has no list of boards`)
  return listKey
}

function boardRefOf(board: BoardToAdd): string | BoardRef {
  return board.company === undefined ? board.slug : {slug: board.slug, company: board.company}
}

/** Entries of the board's type in the board's region (an entry without `region` is Lever's global one). */
function sameKind(entry: SourceConfig, board: BoardToAdd): boolean {
  return entry.type === board.type && (entry.region ?? 'global') === (board.region ?? 'global')
}

interface BoardsAdded {
  sources: SourceConfig[]
  /** Source names (`greenhouse:acme`) written. */
  added: string[]
  /** Source names some entry of the list holds already, enabled or not: nothing written for them. */
  present: string[]
}

/**
 * `sources` with each board added: into the first enabled entry of its type and region that has no `url` of its
 * own (a mirror serves the boards it was set up for), else as a new entry at the end. A board that an entry of its
 * type and region lists already is left as it is.
 */
export function addBoards(sources: readonly SourceConfig[], boards: readonly BoardToAdd[]): BoardsAdded {
  const result: SourceConfig[] = structuredClone([...sources])
  const added: string[] = []
  const present: string[] = []
  for (const board of boards) {
    const entry = boardEntry(board)
    const listKey = listOf(board)
    const holder = result.find(
      (existing) => sameKind(existing, board) && boardSlugs(existing[listKey] ?? []).includes(board.slug),
    )
    if (holder) {
      present.push(sourceName(holder, board.slug))
      continue
    }
    const target = result.find(
      (existing) => sameKind(existing, board) && existing.enabled !== false && existing.url === undefined,
    )
    if (target) {
      target[listKey] = [...(target[listKey] ?? []), boardRefOf(board)]
      added.push(sourceName(target, board.slug))
    } else {
      result.push(entry)
      added.push(sourceName(entry, board.slug))
    }
  }
  return {sources: result, added, present}
}
