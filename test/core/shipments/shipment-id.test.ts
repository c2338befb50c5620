import {describe, expect, it} from 'vitest'
import {ValidationError} from '../../../src/core/errors.js'
import {shipmentIdProblem, validateShipmentId} from '../../../src/core/shipments/shipment-id.js'

describe('shipment ids', () => {
  it('accepts printable ids up to 256 characters, slashes and spaces included', () => {
    for (const id of ['SHP-1001', 'a/b', 'ü ñ 字', 'x'.repeat(256)]) expect(validateShipmentId(id)).toBe(id)
  })

  it('refuses an empty id', () => {
    expect(shipmentIdProblem('')).toBe('shipment id must not be empty')
  })

  it('refuses an id longer than 256 characters and says how long it was', () => {
    expect(shipmentIdProblem('x'.repeat(257))).toBe('shipment id must be at most 256 characters long (got 257)')
  })

  it.each([['\u0000'], ['\n'], ['\t'], ['\u007f'], ['\u009b']])('refuses control character %j', (char) => {
    expect(shipmentIdProblem(`ab${char}`)).toMatch(/control characters .* at position 3/)
  })

  it('throws a ValidationError that names the field', () => {
    expect(() => validateShipmentId('')).toThrow(ValidationError)
    try {
      validateShipmentId('')
    } catch (error) {
      expect((error as ValidationError).details).toEqual([
        {field: 'shipment_id', message: 'shipment id must not be empty'},
      ])
    }
  })
})
