import {describe, expect, it} from 'vitest'
import {jsonNestsDeeperThan, nestsDeeperThan} from '../../src/core/nesting.js'

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`

describe('jsonNestsDeeperThan', () => {
  it('counts arrays and objects opened inside each other, up to the limit', () => {
    expect(jsonNestsDeeperThan(nested(3), 3)).toBe(false)
    expect(jsonNestsDeeperThan(nested(4), 3)).toBe(true)
    expect(jsonNestsDeeperThan('{"a":{"b":[{"c":1}]}}', 3)).toBe(true)
    expect(jsonNestsDeeperThan('{"a":{"b":[1]},"c":{"d":[2]}}', 3)).toBe(false)
    expect(jsonNestsDeeperThan(nested(5_000_000))).toBe(true)
  })

  it('skips brackets inside strings, whatever their escapes', () => {
    const deepText = JSON.stringify({description: `<a href="x">${'['.repeat(500)}</a> \\ "quoted" ${'{'.repeat(500)}`})
    expect(jsonNestsDeeperThan(deepText, 2)).toBe(false)
    // A string ending in a backslash: its closing quote is not escaped, and the brackets after it count.
    expect(jsonNestsDeeperThan(`["a\\\\", ${nested(3)}]`, 3)).toBe(true)
    expect(jsonNestsDeeperThan(`["a\\\\\\"[[[[", 1]`, 1)).toBe(false)
  })

  it('leaves text whose string never ends to the parser', () => {
    expect(jsonNestsDeeperThan('["never ends [[[[[[', 2)).toBe(false)
  })

  it('reads a parsed value the same way', () => {
    expect(nestsDeeperThan(JSON.parse(nested(4)), 3)).toBe(true)
    expect(nestsDeeperThan(JSON.parse(nested(3)), 3)).toBe(false)
  })
})
