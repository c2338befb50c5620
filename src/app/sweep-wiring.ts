import {join} from 'node:path'
import {setTimeout as delay} from 'node:timers/promises'
import {ConfigurationError} from '../core/errors.js'
import {type BoardToAdd, followBoards, followedBoardsFile} from '../core/jobs/board-entries.js'
import {htmlToText} from '../core/jobs/description.js'
import type {SourceConfig} from '../core/jobs/source-config.js'
import {type DirectorySelection, sweptBoard} from '../core/sweep/directory.js'
import type {DeadBoard} from '../core/sweep/sweep-store.js'
import {createHttpClient} from '../http-client/index.js'
import {sweepReader} from '../sources/board-sweep.js'
import {ensurePrivateDirectory} from '../storage/durable-file.js'
import {SqliteRunBoardStore} from '../storage/sqlite/sqlite-run-board-store.js'
import {SqliteSweepStore} from '../storage/sqlite/sqlite-sweep-store.js'
import {appendToBoardsFile, heldBoardsFile} from './boards-file.js'
import {ConfigEditor} from './config-editor.js'
import type {AppContext} from './context.js'
import {catchInterrupts} from './interrupts.js'
import {acquireRunLock} from './run-lock.js'
import {matchingFrom} from './shared-search.js'
import {type MatchedBoard, Sweeper, type SweepProgress, type SweepSummary} from './sweep.js'
import {openDirectory, readCompanies} from './sweep-directory.js'
import {USER_AGENT} from './version.js'

interface SweepCommandOptions {
  directory?: string | undefined
  ats?: string[] | undefined
  /** A file of company names or slugs, one a line. */
  companies?: string | undefined
  limit?: number | undefined
  force: boolean
  restart: boolean
  /** Add the companies with matches scored at least `minScore` to `sources`. */
  follow: boolean
  minScore?: number | undefined
  signal?: AbortSignal
  /** Called once the number of boards selected is known, then after each board. */
  onStart?: (total: number) => void
  onProgress?: (progress: SweepProgress) => void
  /** Called once every board is asked, with the candidates about to be ranked. */
  onRanking?: (candidates: number) => void
}

/** The boards `--follow` writes at most at once; a larger set is a directory of its own, not companies to watch. */
const MAX_FOLLOWED = 200

export type SweepResult = SweepSummary & {followed: {added: string[]; present: string[]} | null}

/**
 * `jobagent sweep`: the directory chosen, the profile required, one sweep at a time under its lock (beside the run's),
 * Ctrl-C or SIGTERM stopping it after the boards in flight, each board's result already committed.
 */
export async function runSweep(context: AppContext, options: SweepCommandOptions): Promise<SweepResult> {
  const matching = matchingFrom(context.config)
  if (!matching) {
    throw new ConfigurationError('a sweep picks jobs by the profile, and none is set', {
      hint: 'say what you look for with: jobagent profile (or jobagent config set profile.roles \'["backend engineer"]\')',
    })
  }
  const settings = context.config.sweep
  const {directory, name} = openDirectory(options.directory, settings.directory)
  const selection: DirectorySelection = {
    ...(options.ats && options.ats.length > 0 ? {ats: options.ats} : {}),
    ...(options.companies ? {companies: await readCompanies(options.companies)} : {}),
    ...(options.limit !== undefined ? {limit: options.limit} : {}),
  }
  ensurePrivateDirectory(context.paths.dataDir)
  const release = acquireRunLock(join(context.paths.dataDir, 'sweep.lock'), 'sweep')
  const interrupts = catchInterrupts(release)
  const http = createHttpClient({
    logger: context.logger.child('http'),
    proxy: context.boardsViaProxy,
    userAgent: USER_AGENT,
    secrets: context.secrets,
    // The sweep waits out Retry-After per platform itself, and tries each board's list again there.
    retries: 0,
    concurrencyPerHost: settings.concurrency,
  })
  try {
    const deps = {http, logger: context.logger.child('sweep'), toText: htmlToText}
    const readers = new Map<string, ReturnType<typeof sweepReader>>()
    const readerFor = (type: string) => {
      if (!readers.has(type)) readers.set(type, sweepReader(type, deps))
      return readers.get(type)
    }
    const sweeper = new Sweeper({
      store: new SqliteSweepStore(context.trackerDb, context.paths.trackerDb),
      jobs: context.jobStore,
      readerFor,
      matching,
      clock: context.clock,
      logger: context.logger,
      settings,
      sleep: (ms, signal) => delay(ms, undefined, {signal}),
      closeAfterRuns: context.config.run.closed_after_runs,
    })
    const signal = options.signal ? AbortSignal.any([options.signal, interrupts.signal]) : interrupts.signal
    const summary = await sweeper.sweep({
      directory,
      directoryName: name,
      selection,
      force: options.force,
      restart: options.restart,
      signal,
      ...(options.onStart ? {onStart: options.onStart} : {}),
      ...(options.onProgress ? {onProgress: options.onProgress} : {}),
      ...(options.onRanking ? {onRanking: options.onRanking} : {}),
    })
    const minScore = options.minScore ?? settings.min_score
    const followed = options.follow && summary.status === 'done' ? follow(context, summary.companies, minScore) : null
    return {...summary, followed}
  } finally {
    interrupts.dispose()
    release()
    await http.close()
  }
}

/**
 * The boards with a match scored at least `minScore`, followed: added to a file of boards per ATS beside the config,
 * each named by a `boards_file` entry of `sources` (followBoards), so the daily run asks them politely and
 * incrementally, however many a sweep follows.
 */
function follow(context: AppContext, companies: readonly MatchedBoard[], minScore: number) {
  const boards: BoardToAdd[] = companies
    .filter((one) => one.best_score >= minScore)
    .slice(0, MAX_FOLLOWED)
    .flatMap((one) => {
      const entry = {ats: one.type, slug: one.slug, company: one.company, ...(one.region ? {region: one.region} : {})}
      const swept = sweptBoard(entry, () => true)
      // A career site on its own host (Teamtailor's) has no entry in `sources` that names it by slug.
      if (!swept || swept.config.url !== undefined) return []
      return [
        {
          type: one.type as BoardToAdd['type'],
          slug: swept.board.slug,
          company: one.company,
          ...(swept.config.region === 'eu' ? {region: 'eu' as const} : {}),
        },
      ]
    })
  if (boards.length === 0) return {added: [], present: []}
  const editor = new ConfigEditor(context.env)
  const current = editor.get('sources', {showSecrets: true}).value as SourceConfig[]
  const files = new Map(boards.map((board) => [followedBoardsFile(board), board.type]))
  const held = new Map([...files].map(([file, type]) => [file, heldBoardsFile(file, type, editor.path)]))
  const inFile = new Map([...held].map(([file, read]) => [file, new Set(read.boards.map((board) => board.slug))]))
  const followed = followBoards(current, boards, inFile, context.config.sweep.urls)
  // The files first: the config then names only files that hold their boards (config set reads them).
  for (const [file, added] of followed.appends) appendToBoardsFile(held.get(file)!, added)
  if (followed.sources.length > current.length) editor.set('sources', JSON.stringify(followed.sources))
  return {added: followed.added, present: followed.present}
}

/**
 * The boards sweeps found dead (404 or no jobs), and those of `boards_file` entries runs found dead (404), that rest
 * until a later sweep or run asks them again; a board both found dead is listed once, as the sweep keeps it.
 */
export async function deadBoards(context: AppContext): Promise<DeadBoard[]> {
  const now = context.clock.now().toISOString()
  const swept = await new SqliteSweepStore(context.trackerDb, context.paths.trackerDb).deadBoards(now)
  const run = await new SqliteRunBoardStore(context.trackerDb, context.paths.trackerDb, context.logger).deadBoards(now)
  const keys = new Set(swept.map((board) => board.key))
  return [...swept, ...run.filter((board) => !keys.has(board.key))].sort((a, b) => a.key.localeCompare(b.key))
}
