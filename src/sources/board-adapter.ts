import type {BoardKind} from '../core/jobs/board-kind.js'
import type {JobSource} from '../core/jobs/job-source.js'
import {
  type BoardListKey,
  type BoardRef,
  boardKind,
  type SourceConfig,
  type SourceType,
} from '../core/jobs/source-config.js'
import {type BoardSpec, boardSource} from './board-source.js'
import type {AdapterDeps} from './shared.js'

/** What a single feed's source may need besides its deps: where relative `path`s start. */
export interface FeedOptions {
  cwd?: string
}

/** A board type whose entry gives one source (`remoteok`, `rss`): its facts and how its one source is built. */
interface FeedAdapter extends BoardKind {
  type: SourceType
  list?: undefined
  source: (config: SourceConfig, deps: AdapterDeps, options?: FeedOptions) => JobSource
  /** The scheme, host and port asked when the entry has no `url`; none for a file or a feed named by its `url`. */
  defaultUrl?: (config: SourceConfig) => string
}

/** A board type whose entry names its boards in a list (an ATS): one source per board of the list. */
interface ListAdapter extends BoardKind {
  type: SourceType
  list: BoardListKey
  source: (config: SourceConfig, board: BoardRef, deps: AdapterDeps) => JobSource
  /** The scheme, host and port one board is asked on when the entry has no `url` (its own, on some ATSs). */
  defaultUrl: (config: SourceConfig, board: BoardRef) => string
  /** The board as data, for an ATS read through boardSource: what a sweep reads its lists and details with. */
  spec?: BoardSpec
}

/** One board type as src/sources/registry.ts lists it: its row of BOARD_KINDS with how the board is read. */
export type BoardAdapter = FeedAdapter | ListAdapter

/** The row of `type`; a descriptor of a type BOARD_KINDS lacks fails as its module loads. */
function kindOf(type: SourceType): BoardKind {
  const kind = boardKind(type)
  if (!kind) throw new Error(`${type} has no row in BOARD_KINDS`)
  return kind
}

/** The descriptor of a type without a list, from its row of BOARD_KINDS and how its source is built. */
export function feedAdapter(type: SourceType, parts: Pick<FeedAdapter, 'source' | 'defaultUrl'>): FeedAdapter {
  const kind = kindOf(type)
  if (kind.list) throw new Error(`${type} names its boards in ${kind.list}: it is no single feed`)
  return {...kind, type, list: undefined, ...parts}
}

/** The descriptor of a type with a list of boards, from its row of BOARD_KINDS and how one board is read. */
export function listAdapter(type: SourceType, parts: Pick<ListAdapter, 'source' | 'defaultUrl' | 'spec'>): ListAdapter {
  const kind = kindOf(type)
  if (!kind.list) throw new Error(`${type} has no list of boards in BOARD_KINDS`)
  return {...kind, type, list: kind.list, ...parts}
}

/** The descriptor of a JSON feed read through boardSource (`remoteok`): one source per entry. */
export function jsonFeedAdapter(spec: BoardSpec): FeedAdapter {
  return feedAdapter(spec.type as SourceType, {
    source: (config, deps) => boardSource(spec, config, deps),
    defaultUrl: (config) => spec.defaultUrl(config, {slug: ''}),
  })
}

/** The descriptor of an ATS read through boardSource (`greenhouse`): one source per board of the entry's list. */
export function jsonBoardsAdapter(spec: BoardSpec): ListAdapter {
  return listAdapter(spec.type as SourceType, {
    source: (config, board, deps) => boardSource(spec, config, deps, board),
    defaultUrl: spec.defaultUrl,
    spec,
  })
}
