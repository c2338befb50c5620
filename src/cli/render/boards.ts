import type {FindResult, FoundBoard, ShownBoard} from '../../app/found-boards.js'
import {escapeControls} from '../../core/control-characters.js'
import type {ConfiguredBoard} from '../../core/jobs/board-health.js'
import type {DeadBoard} from '../../core/sweep/sweep-store.js'
import type {Style} from '../style.js'
import {renderTable} from '../table.js'

/** Boards shown one by one; a page that links to more (a directory of employers) is summed up after them. */
const SHOWN_BOARDS = 20

function jobs(board: FoundBoard): string {
  return `${board.count_is_minimum ? 'at least ' : ''}${board.count}`
}

/** The directory's boards as a table: each board's source name, ATS, company and public page. */
export function renderBoardTable(boards: readonly ShownBoard[], style: Style, width?: number): string {
  return renderTable(
    boards,
    [
      {header: 'SOURCE', value: (board) => board.name, shrinkTo: 50},
      {header: 'ATS', value: (board) => board.ats},
      {header: 'COMPANY', value: (board) => board.company ?? '-', shrinkTo: 40},
      {header: 'LINK', value: (board) => board.url, fill: true},
    ],
    style.bold,
    {width},
  )
}

/** That a directory's board may have closed since the directory was made, and how to ask the ATSs now. */
const MAY_HAVE_CLOSED =
  'The directory lists boards that had open jobs when it was made; one may have closed since (--probe asks the ATSs now).'

/** What `boards find` found, each board's entry, and the next step: `--add`, or `jobagent run` after it. */
export function renderFound(result: FindResult, style: Style, configFile: string, width?: number): string {
  const lines: string[] = []
  const shown = result.boards.slice(0, SHOWN_BOARDS)
  const more = result.boards.length - shown.length
  const fromDirectory = shown.length > 0 && shown.every((board) => board.from === 'directory')
  if (fromDirectory) {
    const count = `${result.boards.length} ${result.boards.length === 1 ? 'board' : 'boards'}`
    const page =
      result.page === null
        ? `"${result.query}"`
        : `The careers page ${result.page.error === null ? 'links to no known board' : `could not be read (${result.page.error})`}; the name of its host`
    lines.push(`${page} is in jobagent's directory of boards (no request made to an ATS): ${count}`, '')
    lines.push(renderBoardTable(shown, style, width), '')
  } else if (result.read_as === 'url' || result.read_as === 'source') {
    const [board] = result.boards
    const from = result.read_as === 'url' ? 'the URL' : 'its source name'
    lines.push(`Recognised ${board?.ats} board "${board?.slug}" from ${from} (no request made).`, '')
  } else if (result.read_as === 'page') {
    const names = shown.map((board) => `${board.ats} "${board.slug}"`).join(', ')
    const count = more > 0 ? `${result.boards.length} boards: ` : ''
    lines.push(`The careers page links to ${count}${names}${more > 0 ? ', …' : ''}.`, '')
  } else {
    const atsCount = result.candidates.length === 0 ? 0 : result.probes / result.candidates.length
    lines.push(
      `Tried ${result.candidates.join(', ')} on ${atsCount} ATSs (${result.probes} requests); ` +
        `${result.boards.length} answered with jobs:`,
      '',
      renderTable(
        shown,
        [
          {header: 'SOURCE', value: (board) => board.name},
          {header: 'ATS', value: (board) => board.ats},
          {header: 'JOBS', value: jobs},
          {header: 'SAMPLE', value: (board) => board.sample_title ?? '', shrinkTo: 50},
        ],
        style.bold,
      ),
      '',
    )
  }
  for (const board of shown) {
    lines.push(`${board.name}: ${JSON.stringify(board.entry)}`)
  }
  if (more > 0) lines.push(`… and ${more} more (--json lists them all)`)
  if (fromDirectory) lines.push(MAY_HAVE_CLOSED)
  if (result.unanswered.length > 0) {
    const first = result.unanswered[0]
    lines.push(
      `${result.unanswered.length} probes got no answer, so those boards were not judged (${first?.name}: ${first?.error}).`,
    )
  }
  lines.push('', ...nextStep(result, configFile))
  return escapeControls(lines.join('\n'), {keepLineBreaks: true})
}

function nextStep(result: FindResult, configFile: string): string[] {
  if (result.added === null) {
    return [`Add to the config with: jobagent boards find ${shellQuote(result.query)} --add`]
  }
  return [
    ...result.added.map((name) => `Added ${name} to sources in ${configFile}.`),
    ...(result.present ?? []).map((name) => `${name} is in sources already.`),
    'Search it with: jobagent run',
  ]
}

function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`
}

/** `ok, 12 jobs`; `dead (3 runs)`; `failed: HTTP 503 ...`; `never run`. */
function outcome(board: ConfiguredBoard): string {
  const last = board.last?.outcome
  if (!last) return 'never run'
  if (last.anomaly?.code === 'dead') return `dead (${last.anomaly.runs} runs): ${last.error ?? '0 jobs'}`
  if (!last.ok) return `failed: ${last.error ?? ''}`
  if (last.anomaly?.code === 'zero_yield') return `ok, 0 jobs (usually ${last.anomaly.usual_count})`
  return `ok, ${last.count} ${last.count === 1 ? 'job' : 'jobs'}`
}

/** The configured sources with their last outcome (`jobagent boards list`). */
export function renderBoardList(boards: readonly ConfiguredBoard[], style: Style, width?: number): string {
  if (boards.length === 0) {
    return 'No sources configured. Find a company\'s board with: jobagent boards find "<company name>"'
  }
  return renderTable(
    boards,
    [
      {header: 'SOURCE', value: (board) => board.name},
      {header: 'ENABLED', value: (board) => (board.enabled ? 'yes' : 'no')},
      {header: 'LAST RUN', value: (board) => board.last?.started_at.slice(0, 19).replace('T', ' ') ?? '-'},
      {header: 'OUTCOME', value: outcome, shrinkTo: 30},
    ],
    style.bold,
    {width},
  )
}

/** The boards sweeps found dead, each with when it was first found so and until when it rests. */
export function renderDeadBoards(boards: readonly DeadBoard[], style: Style, width?: number): string {
  if (boards.length === 0) return 'No board of a sweep is resting as dead.'
  return renderTable(
    boards,
    [
      {header: 'BOARD', value: (board) => escapeControls(board.key)},
      {header: 'COMPANY', value: (board) => escapeControls(board.company), shrinkTo: 40},
      {header: 'DEAD SINCE', value: (board) => board.dead_since.slice(0, 10)},
      {header: 'RESTS UNTIL', value: (board) => board.dead_until.slice(0, 10)},
      {header: 'SWEEPS', value: (board) => String(board.dead_count)},
    ],
    style.bold,
    {width},
  )
}
