import {describe, expect, it} from 'vitest'
import {writeJson} from '../../../src/cli/render/json-output.js'
import {escapeJsonControls} from '../../../src/core/control-characters.js'

function written(value: unknown): {text: string; writes: string[]} {
  const writes: string[] = []
  writeJson(value, (text) => writes.push(text))
  return {text: writes.join(''), writes}
}

const asStringify = (value: unknown) => `${escapeJsonControls(JSON.stringify(value, null, 2))}\n`

describe('writeJson', () => {
  it.each([
    ['an empty object', {}],
    ['an empty array', []],
    ['a string', 'plain'],
    ['a number', 42],
    ['null', null],
    ['nested empty containers', {a: [], b: {}, c: [[], {}]}],
    [
      'a run summary',
      {
        status: 'ok',
        sources: [{name: 'remoteok', ok: true, count: 2, anomaly: null}],
        jobs: [{id: 1, title: 'Dev', reasons: ['+ typescript (title)'], salary: {min: 1, max: null}}],
        matching: null,
      },
    ],
    ['left-out values', {kept: 1, gone: undefined, fn: () => 1, list: [undefined, () => 1, 2]}],
    ['a date and a toJSON object', {at: new Date('2026-11-24T10:00:00Z'), custom: {toJSON: () => ({x: [1, 2]})}}],
    ['keys and strings that need escaping', {'a"b\n': 'line\nbreak \u001b[31m \u2028 \u202e \u0085 tab\t'}],
    ['a null-prototype object', Object.assign(Object.create(null), {a: 1, b: [true, false]})],
  ])('writes %s as JSON.stringify(value, null, 2) does, controls escaped', (_name, value) => {
    expect(written(value).text).toBe(asStringify(value))
    if (typeof value === 'object' && value !== null)
      expect(JSON.parse(written(value).text)).toEqual(JSON.parse(asStringify(value)))
  })

  it('writes a large document in pieces, none of them the whole document', () => {
    const jobs = Array.from({length: 5000}, (_, id) => ({id, title: `Engineer ${id} – remote`, tags: ['dev', 'ops']}))
    const {text, writes} = written({jobs})
    expect(text).toBe(asStringify({jobs}))
    expect(writes.length).toBeGreaterThan(5)
    expect(Math.max(...writes.map((piece) => piece.length))).toBeLessThan(70 * 1024)
  })
})
