/**
 * The value at `path` in a document from outside (a config file, a backup): each step an own property, so a path
 * never reads what every object inherits (`constructor`, `__proto__`); undefined where the document has none.
 */
export function valueAtPath(document: unknown, path: readonly PropertyKey[]): unknown {
  let value = document
  for (const step of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, step)) return undefined
    value = (value as Record<PropertyKey, unknown>)[step]
  }
  return value
}
