import {ValidationError} from '../errors.js'

export const MAX_SHIPMENT_ID_LENGTH = 256

const CONTROL_CHARACTER = /\p{Cc}/u

/** Why `id` cannot name a shipment, or undefined when it can. Length counts UTF-16 units, like JSON Schema. */
export function shipmentIdProblem(id: string): string | undefined {
  if (id.length === 0) return 'shipment id must not be empty'
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
