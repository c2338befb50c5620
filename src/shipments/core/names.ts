/**
 * Table, collection, column and field names come from the config and from import files and end up in SQL and
 * MongoDB queries; only names of this shape are accepted, so quoting them can never be escaped.
 */
const STORE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

export function isStoreName(name: string): boolean {
  return STORE_NAME.test(name)
}
