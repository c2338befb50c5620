import {ConfigurationError} from '../core/errors.js'
import {isStoreName} from '../core/shipments/names.js'

/**
 * A table or column name as a double-quoted SQL identifier (SQLite and PostgreSQL alike). Only plain names are
 * accepted, so the quotes keep the exact case and nothing in the name can end them.
 */
export function quoteIdentifier(name: string): string {
  if (!isStoreName(name)) {
    throw new ConfigurationError(`${JSON.stringify(name)} is not a usable table or column name`, {
      hint: 'use letters, digits and _ only, not starting with a digit',
    })
  }
  return `"${name}"`
}

/** A name for the (id, time) index derived from the table and columns, e.g. `telemetry_shipment_id_recorded_at`. */
export function indexName(table: string, ...columns: string[]): string {
  return quoteIdentifier([table, ...columns].join('_').slice(0, 63))
}
