/**
 * The one place the configuration schema and the records of core (applications, jobs, runs) import zod/mini from. The
 * build replaces the compiled file with a bundle of just these functions (scripts/bundle-modules.js): every command
 * reads the configuration and most load the records, and zod's package loads its locales and JSON Schema generator
 * with any of its entries, a cost a short command notices.
 * Naming the functions here is what lets the bundle leave the rest of zod out; the compiler points at this list
 * when the schema uses a function missing from it.
 */

export type {core, output} from 'zod/mini'
export {
  _default,
  array,
  boolean,
  discriminatedUnion,
  enum,
  extend,
  gt,
  gte,
  int,
  literal,
  lte,
  maxLength,
  minLength,
  nullable,
  number,
  object,
  optional,
  partialRecord,
  prefault,
  record,
  regex,
  registry,
  strictObject,
  string,
  union,
  unknown,
} from 'zod/mini'
