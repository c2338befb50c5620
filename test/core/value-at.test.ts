import {describe, expect, it} from 'vitest'
import {valueAtPath} from '../../src/core/value-at.js'

describe('valueAtPath', () => {
  it('walks own properties of objects and lists, and gives undefined where the document has none', () => {
    const document = {sources: [{type: 'greenhouse'}], mode: 'production'}
    expect(valueAtPath(document, ['sources', 0, 'type'])).toBe('greenhouse')
    expect(valueAtPath(document, ['sources', '0', 'type'])).toBe('greenhouse')
    expect(valueAtPath(document, ['mode', 'length'])).toBeUndefined()
    expect(valueAtPath(document, ['sources', 3])).toBeUndefined()
    expect(valueAtPath(null, ['a'])).toBeUndefined()
  })

  it('never reads what every object inherits', () => {
    expect(valueAtPath({}, ['constructor'])).toBeUndefined()
    expect(valueAtPath({a: {}}, ['a', '__proto__'])).toBeUndefined()
  })
})
