/** Pure layout arithmetic shared by the state (page size, scrolling) and the components (what to draw). */

export interface Size {
  columns: number
  rows: number
}

interface Panels {
  detail: boolean
  picker: boolean
  help: boolean
  /** Boards shown in the live search panel (0 when no search is shown). */
  runLines: number
  /** 2 when the message is longer than a line (an error with its hint, a long path). */
  messageLines?: number
}

export interface Rows {
  /** Table body rows (without the column header). */
  table: number
  /** The detail pane or the status picker, under the table. */
  panel: number
  run: number
  /** The help panel, in place of the table. */
  help: number
  message: number
}

export const MIN_SIZE: Size = {columns: 40, rows: 12}
const PICKER_ROWS = 9
const MAX_RUN_ROWS = 6
const FIXED_ROWS = 3 // two header lines and the footer

/**
 * One row fewer than the terminal: Ink clears the whole screen before every frame that is as tall as the
 * terminal, which flickers.
 */
export function frameHeight(size: Size): number {
  return Math.max(MIN_SIZE.rows, size.rows) - 1
}

export function isTooSmall(size: Size): boolean {
  return size.columns < MIN_SIZE.columns || size.rows < MIN_SIZE.rows
}

export function layoutRows(size: Size, panels: Panels): Rows {
  const message = Math.min(2, Math.max(1, panels.messageLines ?? 1))
  const body = frameHeight(size) - FIXED_ROWS - message
  const run = Math.min(panels.runLines, MAX_RUN_ROWS)
  if (panels.help) return {table: 0, panel: 0, run, help: body - run, message}
  // Details take two thirds of the body: a job's facts and the start of its description.
  const wanted = panels.picker ? PICKER_ROWS : panels.detail ? Math.max(6, Math.ceil((body * 2) / 3)) : 0
  // The table keeps at least three rows (one while picking a status); the pane gives way first.
  const keep = panels.picker ? 1 : 3
  const panel = Math.max(0, Math.min(wanted, body - run - 1 - keep))
  return {table: Math.max(1, body - run - 1 - panel), panel, run, help: 0, message}
}

export interface ColumnSpec {
  key: string
  header: string
  /** Narrowest useful width; a column that does not fit at this width is left out. */
  min: number
  /** Share of the spare width; 0 keeps the column at `min`. */
  weight: number
  /** Lower numbers stay longest when the terminal is narrow. */
  priority: number
}

export type FittedColumn<S extends ColumnSpec = ColumnSpec> = S & {width: number}

/** Leaves out the least important columns until the rest fit at their minimum, then shares out the spare width. */
export function fitColumns<S extends ColumnSpec>(specs: readonly S[], width: number): FittedColumn<S>[] {
  const byPriority = [...specs].sort((a, b) => a.priority - b.priority)
  const kept: S[] = []
  let used = 0
  for (const spec of byPriority) {
    const needed = spec.min + (kept.length > 0 ? 1 : 0)
    if (used + needed > width) continue
    kept.push(spec)
    used += needed
  }
  const shown = specs.filter((spec) => kept.includes(spec))
  const spare = Math.max(0, width - used)
  const weights = shown.reduce((sum, spec) => sum + spec.weight, 0)
  const fitted = shown.map((spec) => ({
    ...spec,
    width: spec.min + (weights > 0 ? Math.floor((spare * spec.weight) / weights) : 0),
  }))
  // Rounding leaves a few columns over; the first flexible column takes them so rows end flush.
  const leftover = width - used - fitted.reduce((sum, column) => sum + column.width - column.min, 0)
  const flexible = fitted.find((column) => column.weight > 0)
  if (flexible && leftover > 0) flexible.width += leftover
  return fitted
}

/** The first row to draw so that `index` is visible, moving the window as little as possible. */
export function scrollTop(top: number, index: number, visible: number, length: number): number {
  const maxTop = Math.max(0, length - visible)
  const followed = Math.min(Math.max(top, index - visible + 1), index)
  return Math.max(0, Math.min(followed, maxTop))
}
