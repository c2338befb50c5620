import {describe, expect, it} from 'vitest'
import {jsonSyntaxMessage} from '../../src/core/json-syntax.js'

function parseError(text: string): unknown {
  try {
    JSON.parse(text)
  } catch (error) {
    return error
  }
  throw new Error('the text parsed')
}

describe('jsonSyntaxMessage', () => {
  it('adds the line and column of the position a JSON.parse error names', () => {
    const text = '{\n  "mode": "development",\n  "search": {\n    tags: []\n  }\n}'
    const message = jsonSyntaxMessage(parseError(text), text)
    expect(message).toMatch(/line 4, column 5\)?$/)
  })

  it('leaves a message without a position as it is', () => {
    expect(jsonSyntaxMessage(new Error('Unexpected end of JSON input'), '{')).toBe('Unexpected end of JSON input')
  })
})
