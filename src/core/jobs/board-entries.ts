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

/** The file `sweep --follow` keeps one ATS's followed boards in, beside the config: `followed-greenhouse.txt`. */
export function followedBoardsFile(board: Pick<BoardToAdd, 'type' | 'region'>): string {
  return `followed-${board.type}${board.region === 'eu' ? '-eu' : ''}.txt`
}

interface BoardsFollowed {
  sources: SourceConfig[]
  /** The boards to add to each followed file (by its name), in order. */
  appends: Map<string, BoardToAdd[]>
  added: string[]
  present: string[]
}

/**
 * Boards a sweep follows, as `boards_file` entries, one file per ATS and region (followedBoardsFile), so the daily
 * run asks them as it asks any file of boards: per platform, with the validators of their last answers. A board an
 * inline list of its kind names, or that its file holds (`inFile`: the slugs each followed file names), is present
 * and left as it is; an entry is added for a file that no entry names yet, with the base URL the sweep asked its
 * ATS at (`mirrors`, from `sweep.urls`), so the run asks the boards where the sweep found them.
 */
export function followBoards(
  sources: readonly SourceConfig[],
  boards: readonly BoardToAdd[],
  inFile: ReadonlyMap<string, ReadonlySet<string>>,
  mirrors: Readonly<Record<string, string>> = {},
): BoardsFollowed {
  const result: SourceConfig[] = structuredClone([...sources])
  const appends = new Map<string, BoardToAdd[]>()
  const added: string[] = []
  const present: string[] = []
  for (const board of boards) {
    const name = `${board.type}:${board.slug}`
    const file = followedBoardsFile(board)
    const listKey = listOf(board)
    const inline = result.some(
      (existing) => sameKind(existing, board) && boardSlugs(existing[listKey] ?? []).includes(board.slug),
    )
    const pending = appends.get(file) ?? []
    if (inline || inFile.get(file)?.has(board.slug) === true || pending.some((one) => one.slug === board.slug)) {
      present.push(name)
      continue
    }
    appends.set(file, [...pending, board])
    added.push(name)
    if (!result.some((existing) => sameKind(existing, board) && existing.boards_file === file)) {
      const mirror = mirrors[board.type]
      result.push({
        type: board.type,
        ...(board.region ? {region: board.region} : {}),
        boards_file: file,
        ...(mirror ? {url: mirror} : {}),
      })
    }
  }
  return {sources: result, appends, added, present}
}
