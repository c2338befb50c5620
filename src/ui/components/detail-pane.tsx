import wrapAnsi from 'wrap-ansi'
import {describeChange, type TrackedApplication} from '../../core/applications/application.js'
import {DOCUMENT_LABELS, documentLine, nextActionLine} from '../../core/applications/application-lines.js'
import {interviewLine} from '../../core/applications/interview-fields.js'
import type {ListedJob} from '../../core/jobs/job-catalog.js'
import {detailFacts, lifecycleFacts} from '../../core/jobs/job-facts.js'
import type {JobVerdict} from '../../core/jobs/job-verdicts.js'
import {daysAgo} from '../../core/time.js'
import type {ApplicationExtras} from '../hooks/use-dashboard-data.js'
import {Box} from '../ink.js'
import {paint, statusColour, useColour} from '../theme.js'
import {Text} from './text.js'

/**
 * `2026-11-22T05:17:33.123` -> `2026-11-22 05:17`; a history time keeps its offset (`2026-11-22 05:17 +01:00`), so
 * changes made in two zones read in order.
 */
function shortTime(timestamp: string | null): string {
  if (!timestamp) return '–'
  const offset = timestamp.slice(23)
  return `${timestamp.slice(0, 16).replace('T', ' ')}${offset ? ` ${offset}` : ''}`
}

interface Line {
  label?: string
  text: string
  tone?: string | undefined
  bold?: boolean
}

function Lines({lines, width, height, title}: {lines: Line[]; width: number; height: number; title: string}) {
  const colour = useColour()
  const rule = `─ ${title} `.padEnd(width, '─')
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden" flexShrink={0}>
      <Text color={paint(colour, 'gray')} wrap="truncate-end">
        {rule}
      </Text>
      {lines.slice(0, Math.max(0, height - 1)).map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines are a fixed layout, rebuilt on every render
        <Text key={index} wrap="truncate-end" bold={Boolean(line.bold) && colour}>
          {line.label ? <Text color={paint(colour, 'gray')}>{`${line.label}: `}</Text> : null}
          <Text color={line.tone}>{line.text}</Text>
        </Text>
      ))}
    </Box>
  )
}

function heading(item: {title: string; company: string; location: string}): string {
  return [item.title, item.company, item.location].filter(Boolean).join(' · ')
}

/** Items side by side, three spaces apart, as many to a line as fit `width`; an item wider than that has its own. */
function pack(items: readonly string[], width: number, indent = ''): Line[] {
  const lines: Line[] = []
  let current = ''
  for (const item of items) {
    if (current !== '' && current.length + 3 + item.length <= width) current = `${current}   ${item}`
    else {
      if (current !== '') lines.push({text: current})
      current = `${indent}${item}`
    }
  }
  if (current !== '') lines.push({text: current})
  return lines
}

/** Labelled facts side by side, so the description keeps its rows. */
function packFacts(facts: readonly [string, string][], width: number): Line[] {
  return pack(
    facts.map(([label, text]) => `${label}: ${text}`),
    width,
  )
}

/** The score and what earned it, the reasons packed like the facts; nothing when the jobs are not scored. */
function scoreLines(job: ListedJob, width: number): Line[] {
  if (job.score === null) return []
  return [{label: 'Score', text: `${job.score} of 100`}, ...pack(job.reasons, width, '  ')]
}

/** When the job was liked: `2026-11-22 08:31`, `(when tracked)` for the like that tracking it gives. */
function likedText(like: JobVerdict): string {
  return `${shortTime(like.given_at)}${like.given_by === 'tracked' ? ' (when tracked)' : ''}`
}

export function JobDetail(props: {
  job: ListedJob
  application: TrackedApplication | undefined
  /** The person's like of the job, if any (a dismissed job is not listed). */
  like: JobVerdict | undefined
  /** The dashboard's clock's time, which 'closed N days ago' counts from. */
  now: Date
  width: number
  height: number
}) {
  const colour = useColour()
  const {job, application} = props
  const status = job.tracked_status ?? 'new'
  const lines: Line[] = [
    {text: heading(job), bold: true},
    // What the profile makes of the job comes first: it is why the job is where it is in the list.
    ...scoreLines(job, props.width),
    ...packFacts(detailFacts(job), props.width),
    ...packFacts(lifecycleFacts(job, props.now), props.width),
    {label: 'URL', text: job.url},
    {label: 'Source', text: `${job.source}   Posted: ${job.posted_date ?? '–'}   ID: ${job.id}`},
    {
      label: 'First seen',
      text: `${shortTime(job.first_seen)}   Last seen: ${shortTime(job.last_seen)}   Notified: ${job.notified_at ? shortTime(job.notified_at) : 'not yet'}`,
    },
    application
      ? {label: 'Tracked', text: `${status}${application.notes ? ` · notes: ${application.notes}` : ''}`}
      : {label: 'Tracked', text: 'no (a tracks it)', tone: statusColour(colour, 'new')},
    ...(props.like ? [{label: 'Liked', text: likedText(props.like)}] : []),
  ]
  // The description fills the rows left, wrapped to the pane; the rest is a line away: jobagent jobs <id>.
  const room = props.height - 1 - lines.length - 1
  if (job.description && room > 0) {
    const text = wrapAnsi(job.description, Math.max(10, props.width), {hard: true, trim: true}).split('\n')
    lines.push({text: ' '})
    const shown = text.length <= room ? text : [...text.slice(0, room - 1), `… (jobagent jobs ${job.id} shows it all)`]
    for (const line of shown) lines.push({text: line})
  }
  return <Lines lines={lines} width={props.width} height={props.height} title="Job" />
}

/**
 * The rows of the application pane after its record, in order: a label and its items, the first beside the label
 * and each other on a line of its own (no item leaves the row out). A field of the application is one more entry.
 */
const APPLICATION_ROWS: readonly [
  label: string,
  items: (application: TrackedApplication, extras: ApplicationExtras) => string[],
][] = [
  [
    'Salary',
    ({salary_expected: expected, salary_offered: offered}) =>
      expected || offered
        ? [[expected && `expected ${expected}`, offered && `offered ${offered}`].filter(Boolean).join(' · ')]
        : [],
  ],
  ['Referral', ({referral}) => (referral ? [referral] : [])],
  ['Next', (application) => (application.next_action ? [nextActionLine(application)] : [])],
  [
    'Documents',
    ({documents}) => documents.map((document) => `${DOCUMENT_LABELS[document.kind]}: ${documentLine(document)}`),
  ],
  [
    'Contacts',
    (_, {contacts}) =>
      contacts.map((contact) => [contact.name, contact.role, contact.reach].filter(Boolean).join(' · ')),
  ],
  ['Interviews', (_, {interviews}) => interviews.map((interview) => interviewLine(interview, ' · '))],
]

function applicationRows(application: TrackedApplication, extras: ApplicationExtras | null): Line[] {
  if (extras === null) return []
  return APPLICATION_ROWS.flatMap(([label, items]) => {
    const [first, ...rest] = items(application, extras)
    if (first === undefined) return []
    const indent = ' '.repeat(label.length + 2)
    return [{label, text: first}, ...rest.map((item) => ({text: `${indent}${item}`}))]
  })
}

export function ApplicationDetail(props: {
  application: TrackedApplication
  /** Its history, interviews and contacts; null while they are read. */
  extras: ApplicationExtras | null
  now: Date
  width: number
  height: number
}) {
  const colour = useColour()
  const {application, extras} = props
  const history = extras?.history ?? null
  const lines: Line[] = [
    {text: heading(application), bold: true},
    {label: 'URL', text: application.url},
    {
      label: 'Source',
      text: `${application.source}   Applied: ${shortTime(application.applied_date)}   Updated: ${shortTime(application.updated_at)}`,
    },
    {label: 'Status', text: application.status, tone: statusColour(colour, application.status)},
    {label: 'Notes', text: application.notes.replace(/\s+/g, ' ') || '–'},
    ...(application.posting_closed_at
      ? [
          {
            label: 'Posting',
            text: `closed ${daysAgo(application.posting_closed_at, props.now)}: the board no longer lists it`,
          },
        ]
      : []),
    ...applicationRows(application, extras),
  ]
  const room = props.height - 1 - lines.length - 1
  if (history === null) {
    lines.push({label: 'History', text: 'loading…'})
  } else if (history.length === 0) {
    lines.push({label: 'History', text: 'no changes yet'})
  } else {
    // Newest first; when they do not all fit, the last line says how many are left out.
    const newest = [...history].reverse()
    const fits = newest.length <= room ? newest.length : Math.max(0, room - 1)
    lines.push({label: 'History', text: `${history.length} change(s)`})
    for (const change of newest.slice(0, fits)) {
      const what = describeChange(change, {arrow: '→', notes: (notes) => notes.replace(/\s+/g, ' ')})
      lines.push({text: `  ${shortTime(change.changed_at)}  ${what}`})
    }
    if (fits < newest.length) lines.push({text: `  … ${newest.length - fits} earlier`})
  }
  return <Lines lines={lines} width={props.width} height={props.height} title="Application" />
}
