/** A field's schema as far as its column needs it: zod's kind of value, and what it wraps (nullable, optional). */
interface FieldSchema {
  _zod: {def: {type: string; innerType?: FieldSchema}}
}

/** How a column holds a field: as it is (text, a number, null), a boolean as 0 or 1, a list or an object as JSON. */
type ColumnKind = 'plain' | 'flag' | 'json'

/** What a value of a field is in its column. */
type Column<T> = T extends boolean ? number : T extends object ? string : T

/** A record as its table's row holds it, a column of each field's name (see recordColumns). */
export type Row<R> = {[K in keyof R]: Column<R[K]>}

function kindOf(schema: FieldSchema, field: string): ColumnKind {
  const {type, innerType} = schema._zod.def
  switch (type) {
    case 'nullable':
    case 'optional':
      if (innerType === undefined) throw new Error(`the ${type} field ${field} wraps no schema`)
      return kindOf(innerType, field)
    case 'string':
    case 'number':
    case 'enum':
    case 'literal':
      return 'plain'
    case 'boolean':
      return 'flag'
    case 'array':
    case 'object':
    case 'record':
      return 'json'
    default:
      // A bug, reported when the store loads: a kind of field no column here holds yet.
      throw new Error(`no SQLite column holds the field ${field} of type ${type}`)
  }
}

/**
 * A core record's fields as the SQLite columns of their names hold them, the kind of each read from the record's
 * schema: text, numbers and null as they are, a boolean as 0 or 1, a list or an object as JSON text. A field added
 * to the schema is then written and read back with no line here; only its column is added (a migration).
 */
export function recordColumns(shape: Readonly<Record<string, FieldSchema>>) {
  const kinds = Object.entries(shape).map(([field, schema]) => [field, kindOf(schema, field)] as const)
  const json = kinds.filter(([, kind]) => kind === 'json').map(([field]) => field)
  const flags = kinds.filter(([, kind]) => kind === 'flag').map(([field]) => field)
  return {
    /** The record's fields as statement parameters; a field it does not have stays absent, others pass as they are. */
    toRow<R extends object>(record: R): Row<R> {
      const row = {...record} as Record<string, unknown>
      for (const field of json) if (field in row && row[field] !== null) row[field] = JSON.stringify(row[field])
      for (const field of flags) if (field in row && row[field] !== null) row[field] = row[field] ? 1 : 0
      return row as Row<R>
    },
    /** A row of the columns a statement read, as the record's fields; other columns (url_key) pass as they are. */
    fromRow<R extends object>(row: Row<R>): R {
      const record: Record<string, unknown> = {...row}
      for (const field of json) if (typeof record[field] === 'string') record[field] = JSON.parse(record[field])
      for (const field of flags) if (typeof record[field] === 'number') record[field] = record[field] === 1
      return record as R
    },
  }
}
