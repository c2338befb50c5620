import type {ErrorKind} from '../core/errors.js'

/** The command could not do its work: not found, conflict, a store or every board unavailable. */
export const EXIT_FAILURE = 1
/** The command was used wrongly: bad flags or arguments, invalid input or configuration. */
export const EXIT_USAGE = 2

export function exitCodeFor(kind: ErrorKind): number {
  return kind === 'validation' || kind === 'configuration' ? EXIT_USAGE : EXIT_FAILURE
}
