import type {JobagentError} from '../../core/errors.js'

/** An error as `--json` prints it: the API's error body, `{error: {code, message, details}}`. */
export function errorDocument(error: JobagentError) {
  return {error: {code: error.kind, message: error.message, details: error.details}}
}
