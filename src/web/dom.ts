// Building DOM nodes from API data. Strings always become text nodes: API text is never parsed as HTML.

/** The element of index.html with this id; a missing one is a bug of the page, reported as such. */
export function $<E extends HTMLElement = HTMLElement>(id: string): E {
  const node = document.getElementById(id)
  if (!node) throw new Error(`the page has no element #${id}`)
  return node as E
}

/** An attribute's value, or a listener for `on<event>`; null, undefined and false leave the attribute out. */
type PropValue = string | number | boolean | null | undefined | EventListener
type Props = Record<string, PropValue>
export type Child = Node | string | null | undefined | false

const present = (children: Child[]): (Node | string)[] =>
  children.filter((child): child is Node | string => child !== null && child !== undefined && child !== false)

/** `el('a', {href, className, onclick}, 'text', child)`; null, undefined and false props and children are skipped. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue
    if (key === 'className') node.className = String(value)
    else if (typeof value === 'function') node.addEventListener(key.slice(2), value)
    else node.setAttribute(key, value === true ? '' : String(value))
  }
  node.append(...present(children))
  return node
}

const SVG_NS = 'http://www.w3.org/2000/svg'

/** `svg('rect', {x: 0, width: 10})`: an SVG element; like el, strings become text nodes. */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number> = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag)
  for (const [key, value] of Object.entries(attributes)) {
    node.setAttribute(key === 'className' ? 'class' : key, String(value))
  }
  node.append(...present(children))
  return node
}

/** A fraction (0.714) as a percentage for reading (71.4%); `–` when there is none. */
export const formatRate = (rate: number | null | undefined): string =>
  typeof rate === 'number' ? `${(rate * 100).toFixed(1)}%` : '–'

/** Text for screen readers only, e.g. which job a "Track" button tracks. */
export const hiddenText = (text: string): HTMLSpanElement => el('span', {className: 'visually-hidden'}, text)

/** The inner div keeps a cell's content together when a phone lays the cell out as label + value. */
export function cell(label: string, ...content: Child[]): HTMLTableCellElement {
  return el('td', {'data-label': label}, el('div', {className: 'cell'}, ...content))
}

/** Links only http(s) URLs, so a javascript: URL from a board stays inert text. */
export function titleLink(record: {url: string; title: string}): HTMLAnchorElement | string {
  let safe = false
  try {
    safe = ['http:', 'https:'].includes(new URL(record.url).protocol)
  } catch {
    safe = false
  }
  return safe ? el('a', {href: record.url, rel: 'noopener noreferrer', target: '_blank'}, record.title) : record.title
}

export function timeElement(value: string | null | undefined, text: string): HTMLTimeElement | string {
  return value ? el('time', {datetime: value}, text) : '—'
}

/** posted_date is ISO 8601 UTC or a plain date: the date part is what a reader needs. */
export const formatDate = (value: string): string => String(value).slice(0, 10)

/**
 * applied_date is a local timestamp without zone: shown as written, to the minute. A history time keeps its UTC
 * offset after the minute (`2026-11-22 05:17 +01:00`).
 */
export const formatLocalTimestamp = (value: string | null | undefined): string => {
  const text = String(value ?? '')
  const offset = text.slice(23)
  return `${text.slice(0, 16).replace('T', ' ')}${offset ? ` ${offset}` : ''}`
}

export const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`

/** An absolute instant (searched_at, UTC) in the browser's time zone. */
export function formatInstant(value: string): string {
  const date = new Date(value)
  return Number.isNaN(date.getTime())
    ? String(value)
    : date.toLocaleTimeString([], {hour: '2-digit', minute: '2-digit'})
}

export function formatDuration(ms: number | undefined): string {
  if (typeof ms !== 'number') return '?'
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}

/**
 * Makes `button` open `row` below the row `anchorOf` gives and close it again; the row exists only while open.
 * `onOpen` runs each time it opens (to load what it shows).
 */
export function toggleRowBelow(
  button: HTMLButtonElement,
  row: HTMLTableRowElement,
  anchorOf: () => HTMLTableRowElement,
  onOpen?: () => void,
): void {
  button.setAttribute('aria-expanded', 'false')
  button.addEventListener('click', () => {
    const open = !row.isConnected
    if (open) {
      anchorOf().after(row)
      button.setAttribute('aria-controls', row.id)
      onOpen?.()
    } else {
      row.remove()
      button.removeAttribute('aria-controls')
    }
    button.setAttribute('aria-expanded', String(open))
  })
}

/** A definition list of label and value rows, leaving out the rows without a value. */
export function factList(rows: readonly (readonly [label: string, value: Child])[], label?: string): HTMLDListElement {
  return el(
    'dl',
    {className: 'facts', 'aria-label': label},
    ...rows.filter(([, value]) => value).flatMap(([name, value]) => [el('dt', {}, name), el('dd', {}, value)]),
  )
}
