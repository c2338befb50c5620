import {describe, expect, it} from 'vitest'
import {ValidationError} from '../../../src/core/errors.js'
import {
  shipmentIdProblem,
  TooManyIdsError,
  validateBatchIds,
  validateShipmentId,
} from '../../../src/shipments/core/shipment-id.js'

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

describe('batch ids', () => {
  it('keeps the order asked and drops repeats', () => {
    expect(validateBatchIds(['b', 'a', 'b', 'c', 'a'])).toEqual(['b', 'a', 'c'])
  })

  it('takes 500 different ids and refuses 501 as too many, counting repeats once', () => {
    const ids = Array.from({length: 500}, (_, n) => `S${n}`)
    expect(validateBatchIds([...ids, 'S0'])).toHaveLength(500)
    expect(() => validateBatchIds([...ids, 'S500'])).toThrow(TooManyIdsError)
    expect(() => validateBatchIds([...ids, 'S500'])).toThrow('at most 500 different ids per batch (got 501)')
  })

  it('refuses an empty list, and names the position of each bad id', () => {
    expect(() => validateBatchIds([])).toThrow('ids must name at least one shipment')
    try {
      validateBatchIds(['ok', '', 'ok', 'x\n'])
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError)
      expect(error).not.toBeInstanceOf(TooManyIdsError)
      expect((error as ValidationError).message).toBe('ids[1] "": shipment id must not be empty')
      expect((error as ValidationError).details.map((detail) => detail.field)).toEqual(['ids[1]', 'ids[3]'])
    }
  })
})
