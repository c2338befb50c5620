import type {TrackedApplication} from '../../core/applications/application.js'
import type {ListedJob} from '../../core/jobs/job-catalog.js'
import {compactSalary} from '../../core/jobs/salary.js'
import {type ColumnSpec, fitColumns} from '../layout.js'
import {statusColour} from '../theme.js'
import {type Column, MARKER_WIDTH} from './table.js'

type Defined<T> = ColumnSpec & Pick<Column<T>, 'value'> & {colourOf?: (row: T) => string}

const JOB_COLUMNS: Defined<ListedJob>[] = [
  // With a profile only (see jobColumns); the list is in score order, so the column outranks all but title and company.
  {key: 'score', header: 'SCORE', min: 5, weight: 0, priority: 2, value: (job) => String(job.score ?? '').padStart(5)},
  {key: 'title', header: 'TITLE', min: 20, weight: 5, priority: 0, value: (job) => job.title},
  {key: 'company', header: 'COMPANY', min: 12, weight: 3, priority: 1, value: (job) => job.company},
  // Narrow enough minimums that the six columns besides SCORE fit an 80-column terminal; longer text is truncated.
  {key: 'location', header: 'LOCATION', min: 9, weight: 2, priority: 5, value: (job) => job.location},
  {key: 'source', header: 'SOURCE', min: 9, weight: 1, priority: 6, value: (job) => job.source},
  // Wide terminals only: the first column dropped when space runs out.
  {
    key: 'salary',
    header: 'SALARY',
    min: 14,
    weight: 1,
    priority: 7,
    value: (job) => (job.salary ? compactSalary(job.salary) : ''),
  },
  {
    key: 'posted',
    header: 'POSTED',
    min: 10,
    weight: 0,
    priority: 4,
    value: (job) => job.posted_date?.slice(0, 10) ?? '',
  },
  {
    key: 'status',
    header: 'STATUS',
    min: 12,
    weight: 0,
    priority: 3,
    value: (job) => {
      if (job.closed_at === null) return job.tracked_status ?? 'new'
      return job.tracked_status ? `${job.tracked_status} · closed` : 'closed'
    },
    colourOf: (job) => job.tracked_status ?? (job.closed_at === null ? 'new' : 'closed'),
  },
]

const UNSCORED_JOB_COLUMNS = JOB_COLUMNS.filter((column) => column.key !== 'score')

const APPLICATION_COLUMNS: Defined<TrackedApplication>[] = [
  // The short id first, as every list shows it: what `jobagent status 12` and the API take. Its width is the
  // longest id's (see applicationColumns).
  {key: 'id', header: 'ID', min: 2, weight: 0, priority: 0, value: (app) => `#${app.id}`},
  {key: 'title', header: 'TITLE', min: 20, weight: 5, priority: 0, value: (app) => app.title},
  {key: 'company', header: 'COMPANY', min: 12, weight: 3, priority: 1, value: (app) => app.company},
  {key: 'location', header: 'LOCATION', min: 10, weight: 2, priority: 5, value: (app) => app.location},
  {key: 'source', header: 'SOURCE', min: 10, weight: 1, priority: 6, value: (app) => app.source},
  {
    key: 'status',
    header: 'STATUS',
    min: 12,
    weight: 0,
    priority: 2,
    value: (app) => app.status,
    colourOf: (app) => app.status,
  },
  {key: 'applied', header: 'APPLIED', min: 10, weight: 0, priority: 3, value: (app) => app.applied_date.slice(0, 10)},
  {key: 'notes', header: 'NOTES', min: 10, weight: 3, priority: 4, value: (app) => app.notes.replace(/\s+/g, ' ')},
]

function fitTable<T>(defined: readonly Defined<T>[], width: number, colour: boolean): Column<T>[] {
  return fitColumns(defined, width - MARKER_WIDTH).map(({colourOf, ...column}) =>
    colourOf ? {...column, tone: (row: T) => statusColour(colour, colourOf(row))} : column,
  )
}

/**
 * The Jobs table's columns for a terminal width, with SCORE when the jobs are scored (a profile is configured).
 * Without it all fit 80 columns; with it source is left out there. Narrower terminals drop source, then location.
 * A new job the person liked (`likes`, by job id) says so in STATUS: `new · liked`.
 */
export function jobColumns(
  width: number,
  colour: boolean,
  scored: boolean,
  likes: ReadonlyMap<number, unknown>,
): Column<ListedJob>[] {
  const columns = scored ? JOB_COLUMNS : UNSCORED_JOB_COLUMNS
  if (likes.size === 0) return fitTable(columns, width, colour)
  const liked = (job: ListedJob) => likes.has(job.id) && job.tracked_status === null && job.closed_at === null
  return fitTable(
    columns.map((column) =>
      column.key === 'status' ? {...column, value: (job) => (liked(job) ? 'new · liked' : column.value(job))} : column,
    ),
    width,
    colour,
  )
}

/**
 * The Applications table's columns; an application due for a follow-up shows the days it has waited after its
 * status (`applied · 9d`), one whose posting closed says so (`applied · closed`); the column widens for what
 * `applications` hold, the ID column for their longest id.
 */
export function applicationColumns(
  width: number,
  colour: boolean,
  followUps: ReadonlyMap<string, number>,
  applications: readonly TrackedApplication[],
): Column<TrackedApplication>[] {
  const anyClosed = applications.some((app) => app.posting_closed_at !== null)
  const idWidth = Math.max(2, ...applications.map((app) => String(app.id).length + 1))
  const withIds = APPLICATION_COLUMNS.map((column) => (column.key === 'id' ? {...column, min: idWidth} : column))
  if (followUps.size === 0 && !anyClosed) return fitTable(withIds, width, colour)
  const status = (app: TrackedApplication) => {
    const days = followUps.get(app.url)
    const waited = days === undefined ? app.status : `${app.status} · ${days}d`
    return app.posting_closed_at ? `${waited} · closed` : waited
  }
  // Room for "interviewing · 30d" and for " · closed".
  const min = 12 + (followUps.size > 0 ? 5 : 0) + (anyClosed ? 9 : 0)
  const columns = withIds.map((column) => (column.key === 'status' ? {...column, min, value: status} : column))
  return fitTable(columns, width, colour)
}
