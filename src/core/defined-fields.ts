/**
 * An object without its fields that are undefined: what a command's flags or a query's parameters gave, for
 * services whose optional fields mean "not given" only when they are left out.
 */
export function definedFields<T extends object>(fields: T): {[K in keyof T]?: Exclude<T[K], undefined>} {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as never
}

/** The named fields of an object, in the order named: a record as a listing or an interchange format shows it. */
export function picked<T extends object, K extends keyof T>(value: T, fields: readonly K[]): Pick<T, K> {
  return Object.fromEntries(fields.map((field) => [field, value[field]])) as Pick<T, K>
}
