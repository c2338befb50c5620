export interface Column<T> {
  header: string
  value: (row: T) => string
  /** Longest width before the cell is cut with an ellipsis. */
  max?: number
}

function truncateCell(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ')
  return flat.length > width ? `${flat.slice(0, Math.max(0, width - 1))}…` : flat
}

/** A plain-text table: one line per row whatever the content, so it stays readable in a pipe or a cron mail. */
export function renderTable<T>(rows: readonly T[], columns: readonly Column<T>[], bold = (s: string) => s): string {
  const cells = rows.map((row) => columns.map((column) => truncateCell(column.value(row), column.max ?? 60)))
  const widths = columns.map((column, index) =>
    Math.max(column.header.length, ...cells.map((line) => line[index]?.length ?? 0)),
  )
  const line = (values: readonly string[]) =>
    values
      .map((value, index) => value.padEnd(widths[index] ?? 0))
      .join('  ')
      .trimEnd()
  return [bold(line(columns.map((column) => column.header))), ...cells.map(line)].join('\n')
}
