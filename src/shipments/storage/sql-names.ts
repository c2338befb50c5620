import {ConfigurationError} from '../../core/errors.js'
import {isStoreName} from '../core/names.js'

/** The identifier quote of a SQL dialect: double quotes for SQLite and PostgreSQL, backticks for MySQL/MariaDB. */
export type IdentifierQuote = '"' | '`'

/**
 * A table or column name as a quoted SQL identifier. Only plain names are accepted, so the quotes keep the exact
 * case and nothing in the name can end them.
 */
export function quoteIdentifier(name: string, quote: IdentifierQuote = '"'): string {
  if (!isStoreName(name)) {
    throw new ConfigurationError(`${JSON.stringify(name)} is not a usable table or column name`, {
      hint: 'use letters, digits and _ only, not starting with a digit',
    })
  }
  return `${quote}${name}${quote}`
}

/** A name for the (id, time) index derived from the table and columns, e.g. `telemetry_shipment_id_recorded_at`. */
export function indexName(quote: IdentifierQuote, table: string, ...columns: string[]): string {
  return quoteIdentifier([table, ...columns].join('_').slice(0, 63), quote)
}
