import {escapeControls} from '../core/control-characters.js'

interface Column<T> {
  header: string
  value: (row: T) => string
  /**
   * The width the column is cut to (with an ellipsis) when a terminal is too narrow for every whole value; the
   * widest such columns are cut first, never below this. Without it a column is never cut.
   */
  shrinkTo?: number
  /** The column that gives up room first on a narrow terminal (a URL), down to a few characters. */
  fill?: boolean
  /**
   * A column left out on a terminal too narrow for every column at its floor: the lowest number first, until the
   * others fit (a job's source and posting date before its salary). Without it a column is always shown.
   */
  hideOrder?: number
}

/** Where the table goes: a terminal of `width` columns, or (undefined) a pipe or a file, which gets whole values. */
export interface TableOptions {
  width?: number | undefined
}

/** The least a fill column gets on a narrow terminal before the line wraps. */
const MIN_FILL = 20

const RUN_OF_SPACE = /\s+/g

/** A cell on one line: runs of white space made one space, controls left (ESC, C1, bidi) shown escaped. */
function flatCell(text: string): string {
  // Most cells hold single spaces only; the regular expression runs only when a cell has other white space. A cell
  // is outside data and never drives the terminal.
  return escapeControls(/[^\S ]| {2}/.test(text) ? text.replace(RUN_OF_SPACE, ' ') : text)
}

function cut(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text
}

/**
 * The least width a column keeps on a narrow terminal, given its widest value: a fill column MIN_FILL, a cuttable one
 * its `shrinkTo`, another its widest value (never more than that, never less than its header).
 */
function floorOf<T>(column: Column<T>, whole: number): number {
  if (column.fill) return Math.min(whole, Math.max(MIN_FILL, column.header.length))
  return column.shrinkTo === undefined ? whole : Math.min(whole, Math.max(column.shrinkTo, column.header.length))
}

/**
 * Each column's width on a terminal of `width` columns: every whole value when they fit; otherwise the fill column
 * gives up room first, then the widest cuttable columns are cut to a common width (never below their `shrinkTo`),
 * so a wide terminal shows whole titles and a narrow one keeps every column readable.
 */
function fitWidths<T>(natural: readonly number[], columns: readonly Column<T>[], width: number): number[] {
  const gaps = 2 * (columns.length - 1)
  const sum = (widths: readonly number[]) => widths.reduce((total, w) => total + w, 0)
  if (sum(natural) + gaps <= width) return [...natural]
  const fill = columns.findIndex((column) => column.fill)
  const widths = [...natural]
  if (fill >= 0) {
    const floor = floorOf(columns[fill]!, natural[fill] ?? 0)
    widths[fill] = Math.max(floor, (natural[fill] ?? 0) - (sum(natural) + gaps - width))
    if (sum(widths) + gaps <= width) return widths
  }
  const floors = columns.map((column, index) =>
    index === fill ? (widths[index] ?? 0) : floorOf(column, natural[index] ?? 0),
  )
  // The largest common width the cuttable columns can keep: a binary search over widths, each step linear.
  const at = (level: number) => widths.map((whole, index) => Math.max(floors[index] ?? 0, Math.min(whole, level)))
  let low = 0
  let high = Math.max(...widths)
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (sum(at(middle)) + gaps <= width) low = middle
    else high = middle - 1
  }
  return at(low)
}

/** A plain-text table: one line per row whatever the content, so it stays readable in a pipe or a cron mail. */
export function renderTable<T>(
  rows: readonly T[],
  columns: readonly Column<T>[],
  bold = (s: string) => s,
  options: TableOptions = {},
): string {
  const allCells = rows.map((row) => columns.map((column) => flatCell(column.value(row))))
  const allNatural = columns.map((column, index) =>
    allCells.reduce((widest, row) => Math.max(widest, row[index]?.length ?? 0), column.header.length),
  )
  const kept =
    options.width === undefined ? columns.map((_, index) => index) : shownColumns(columns, allNatural, options.width)
  const shown = kept.map((index) => columns[index]!)
  const cells = allCells.map((row) => kept.map((index) => row[index] ?? ''))
  const natural = kept.map((index) => allNatural[index] ?? 0)
  const widths = options.width === undefined ? natural : fitWidths(natural, shown, options.width)
  return renderLines(shown, cells, widths, bold)
}

/**
 * The indexes of the columns a terminal of `width` shows: all while they fit at their floors, else without the
 * hideable ones, lowest `hideOrder` first, until the rest fit (or none is left to hide: the line wraps).
 */
function shownColumns<T>(columns: readonly Column<T>[], natural: readonly number[], width: number): number[] {
  const kept = columns.map((_, index) => index)
  let needs = kept.reduce(
    (total, index) => total + floorOf(columns[index]!, natural[index] ?? 0),
    2 * (kept.length - 1),
  )
  const hideable = kept
    .filter((index) => columns[index]!.hideOrder !== undefined)
    .sort((a, b) => (columns[a]!.hideOrder ?? 0) - (columns[b]!.hideOrder ?? 0))
  for (const index of hideable) {
    if (needs <= width) break
    kept.splice(kept.indexOf(index), 1)
    needs -= floorOf(columns[index]!, natural[index] ?? 0) + 2
  }
  return kept
}

function renderLines<T>(
  columns: readonly Column<T>[],
  cells: readonly (readonly string[])[],
  widths: readonly number[],
  bold: (s: string) => string,
): string {
  const last = columns.length - 1
  const line = (values: readonly string[]) => {
    let text = ''
    for (let index = 0; index < last; index++) {
      text += `${cut(values[index] ?? '', widths[index] ?? 0).padEnd(widths[index] ?? 0)}  `
    }
    return `${text}${cut(values[last] ?? '', widths[last] ?? 0)}`.trimEnd()
  }
  const lines = [bold(line(columns.map((column) => column.header)))]
  for (const row of cells) lines.push(line(row))
  return lines.join('\n')
}
