// Building DOM nodes from API data. Strings always become text nodes: API text is never parsed as HTML.

export const $ = (id) => document.getElementById(id)

/** `el('a', {href, className, onclick}, 'text', child)`; null, undefined and false props and children are skipped. */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag)
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue
    if (key === 'className') node.className = value
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value)
    else node.setAttribute(key, value === true ? '' : String(value))
  }
  node.append(...children.filter((child) => child !== null && child !== undefined && child !== false))
  return node
}

const SVG_NS = 'http://www.w3.org/2000/svg'

/** `svg('rect', {x: 0, width: 10})`: an SVG element; like el, strings become text nodes. */
export function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag)
  for (const [key, value] of Object.entries(attributes)) {
    if (key === 'className') node.setAttribute('class', value)
    else node.setAttribute(key, String(value))
  }
  node.append(...children.filter((child) => child !== null && child !== undefined && child !== false))
  return node
}

/** A fraction (0.714) as a percentage for reading (71.4%); `–` when there is none. */
export const formatRate = (rate) => (typeof rate === 'number' ? `${(rate * 100).toFixed(1)}%` : '–')

/** Text for screen readers only, e.g. which job a "Track" button tracks. */
export const hiddenText = (text) => el('span', {className: 'visually-hidden'}, text)

/** The inner div keeps a cell's content together when a phone lays the cell out as label + value. */
export function cell(label, ...content) {
  return el('td', {'data-label': label}, el('div', {className: 'cell'}, ...content))
}

/** Links only http(s) URLs, so a javascript: URL from a board stays inert text. */
export function titleLink(record) {
  let safe = false
  try {
    safe = ['http:', 'https:'].includes(new URL(record.url).protocol)
  } catch {
    safe = false
  }
  return safe ? el('a', {href: record.url, rel: 'noopener noreferrer', target: '_blank'}, record.title) : record.title
}

export function timeElement(value, text) {
  return value ? el('time', {datetime: value}, text) : '—'
}

/** posted_date is ISO 8601 UTC or a plain date: the date part is what a reader needs. */
export const formatDate = (value) => String(value).slice(0, 10)
/**
 * applied_date is a local timestamp without zone: shown as written, to the minute. A history time keeps its UTC
 * offset after the minute (`2026-11-22 05:17 +01:00`).
 */
export const formatLocalTimestamp = (value) => {
  const text = String(value ?? '')
  const offset = text.slice(23)
  return `${text.slice(0, 16).replace('T', ' ')}${offset ? ` ${offset}` : ''}`
}
const PERIOD_WORDS = {year: 'a year', month: 'a month', week: 'a week', day: 'a day', hour: 'an hour'}

/** A job's salary for reading: `EUR 70,000 – 90,000 a year`, or the board's words when it gave no amounts. */
export function formatSalary(salary) {
  if (!salary) return ''
  const amount = (value) => new Intl.NumberFormat(undefined, {maximumFractionDigits: 2}).format(value)
  const {min, max, currency, period, text} = salary
  if (min === null && max === null) return text ?? ''
  const range = min !== null && max !== null && min !== max ? `${amount(min)} – ${amount(max)}` : amount(min ?? max)
  const bound = min === null ? 'up to ' : max === null ? 'from ' : ''
  return [`${bound}${currency ?? ''}`.trim(), range, PERIOD_WORDS[period] ?? ''].filter(Boolean).join(' ')
}

const EMPLOYMENT_WORDS = {
  full_time: 'full time',
  part_time: 'part time',
  contract: 'contract',
  internship: 'internship',
  temporary: 'temporary',
}

/** What a detail view lists about a job, label and text, leaving out what the board did not give. */
export function jobFacts(job) {
  const places = [...(job.regions ?? []), ...(job.timezones ?? [])].join(', ')
  const where = job.remote === true ? 'remote' : job.remote === false ? 'on site' : ''
  const workplace = where && places ? `${where} (${places})` : where || (places ? `candidates in ${places}` : '')
  return [
    ['Salary', formatSalary(job.salary)],
    ['Type', EMPLOYMENT_WORDS[job.employment_type] ?? ''],
    ['Workplace', workplace],
    ['Seniority', job.seniority ?? ''],
    ['Tags', (job.tags ?? []).join(', ')],
    ['Closed', job.closed_at ? `${formatLocalTimestamp(job.closed_at)}: no board lists it any more` : ''],
    [
      'Reposted',
      job.reposted > 0 ? `${plural(job.reposted, 'time')} since ${formatLocalTimestamp(job.first_seen)}` : '',
    ],
    ['Also on', (job.also_on ?? []).map((listing) => `${listing.source} ${listing.url}`).join(', ')],
  ].filter(([, text]) => text)
}

export const plural = (count, noun) => `${count} ${noun}${count === 1 ? '' : 's'}`

/** An absolute instant (searched_at, UTC) in the browser's time zone. */
export function formatInstant(value) {
  const date = new Date(value)
  return Number.isNaN(date.getTime())
    ? String(value)
    : date.toLocaleTimeString([], {hour: '2-digit', minute: '2-digit'})
}

export function formatDuration(ms) {
  if (typeof ms !== 'number') return '?'
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}
