import {describe, expect, it} from 'vitest'
import {textHash} from '../../src/core/text-hash.js'

describe('textHash', () => {
  it('is the base64 SHA-1 of the text, as stored in existing databases', () => {
    expect(textHash('abc')).toBe('qZk+NkcGgWq6PiVxeFDCbJzQ2J0=')
  })

  it('hashes several parts as their concatenation, whatever the characters', () => {
    const html = '<p>Build tools – for teams &amp; “customers” 🚀</p>'.repeat(50)
    expect(textHash('1\u0000', html)).toBe(textHash(`1\u0000${html}`))
    expect(textHash('', 'x', '')).toBe(textHash('x'))
  })
})
