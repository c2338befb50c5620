/**
 * A database row as plain JSON values: dates become ISO 8601 UTC, binary becomes base64 and 64-bit integers become
 * numbers when exact and text otherwise, so a row can be sent as a response body as it is. The row is converted in
 * place and returned: drivers hand out a fresh object per row, and most values (text, numbers) stay as they are, so
 * copying every row on every lookup would only make garbage.
 */
export function plainRow(row: Record<string, unknown>): Record<string, unknown> {
  for (const key in row) {
    const value = row[key]
    if (typeof value === 'object' || typeof value === 'bigint') row[key] = plainValue(value)
  }
  return row
}

/**
 * A row built from its column names and values. Each name is defined as data, so a column named `__proto__` is
 * one like any other (an assignment would set the prototype and lose it); drivers that build row objects by
 * assignment drop or refuse such a column, so rows are read as arrays and built here.
 */
export function rowOf(names: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {}
  for (let index = 0; index < names.length; index++) {
    const name = names[index] as string
    if (name === '__proto__') Object.defineProperty(row, name, {value: values[index], enumerable: true, writable: true})
    else row[name] = values[index]
  }
  return row
}

function plainValue(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString()
  if (Buffer.isBuffer(value)) return value.toString('base64')
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString()
  }
  return value
}

/** A JSON value as something a SQL driver stores: objects and arrays as JSON text, booleans as 1/0 for SQLite. */
export function sqlValue(value: unknown, booleans: 'native' | 'integer'): unknown {
  if (value === undefined) return null
  if (typeof value === 'boolean') return booleans === 'native' ? value : value ? 1 : 0
  if (typeof value === 'object' && value !== null) return JSON.stringify(value)
  return value
}
