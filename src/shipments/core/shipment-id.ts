import {ValidationError} from '../../core/errors.js'

export const MAX_SHIPMENT_ID_LENGTH = 256

const CONTROL_CHARACTER = /\p{Cc}/u

/** Why `id` cannot name a shipment, or undefined when it can. Length counts UTF-16 units, like JSON Schema. */
export function shipmentIdProblem(id: string): string | undefined {
  if (id.length === 0) return 'shipment id must not be empty'
  // No store keys a shipment by blanks alone: `/shipments/%20/unified` is a typo, not a lookup.
  if (id.trim() === '') return 'shipment id must not be only white space'
  if (id.length > MAX_SHIPMENT_ID_LENGTH) {
    return `shipment id must be at most ${MAX_SHIPMENT_ID_LENGTH} characters long (got ${id.length})`
  }
  const control = CONTROL_CHARACTER.exec(id)
  if (control) {
    const code = control[0].codePointAt(0)?.toString(16).padStart(4, '0') ?? ''
    return `shipment id must not contain control characters (found U+${code.toUpperCase()} at position ${control.index + 1})`
  }
  return undefined
}

/** The id unchanged, or a ValidationError (400 on the API, exit 2 on the command line). */
export function validateShipmentId(id: string): string {
  const problem = shipmentIdProblem(id)
  if (problem) {
    throw new ValidationError(problem, {
      details: [{field: 'shipment_id', message: problem}],
      hint: `a shipment id is 1 to ${MAX_SHIPMENT_ID_LENGTH} printable characters`,
    })
  }
  return id
}

/** How many shipments one batch lookup may name: a bound on the statements and the answer of one request. */
export const MAX_BATCH_IDS = 500

/** More ids than one batch takes: 413 for a request body, 414 for a query string, exit 2 on the command line. */
export class TooManyIdsError extends ValidationError {}

/**
 * The ids of a batch lookup, each checked as a single id is (the first bad one named in the message, every bad one
 * in the details), repeats dropped, in the order given.
 */
export function validateBatchIds(ids: readonly string[]): string[] {
  const unique = [...new Set(ids)]
  if (unique.length === 0) {
    throw new ValidationError('ids must name at least one shipment', {
      details: [{field: 'ids', message: 'ids must name at least one shipment'}],
      hint: 'e.g. ?ids=SHP-1001,SHP-1002 or {"ids": ["SHP-1001"]}',
    })
  }
  if (unique.length > MAX_BATCH_IDS) {
    const message = `at most ${MAX_BATCH_IDS} different ids per batch (got ${unique.length})`
    throw new TooManyIdsError(message, {
      details: [{field: 'ids', message}],
      hint: `split the list into batches of ${MAX_BATCH_IDS}`,
    })
  }
  const details = unique.flatMap((id) => {
    const problem = shipmentIdProblem(id)
    return problem ? [{field: `ids[${ids.indexOf(id)}]`, message: `${JSON.stringify(id)}: ${problem}`}] : []
  })
  const [first] = details
  if (first) {
    throw new ValidationError(`${first.field} ${first.message}`, {
      details,
      hint: `a shipment id is 1 to ${MAX_SHIPMENT_ID_LENGTH} printable characters`,
    })
  }
  return unique
}
