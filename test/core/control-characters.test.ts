import {describe, expect, it} from 'vitest'
import {
  encodeControlsInUrl,
  escapeControls,
  escapeJsonControls,
  findControl,
  removeBidiControls,
} from '../../src/core/control-characters.js'

/** Every character escapeControls must never let through: C0, DEL, C1, bidi embeddings, overrides and isolates. */
const CONTROLS = [
  ...Array.from({length: 0x20}, (_, code) => code),
  ...Array.from({length: 0x21}, (_, offset) => 0x7f + offset),
  0x202a,
  0x202b,
  0x202c,
  0x202d,
  0x202e,
  0x2066,
  0x2067,
  0x2068,
  0x2069,
].map((code) => String.fromCharCode(code))
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters a terminal would act on
const RAW = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

describe('escapeControls', () => {
  it('shows escape sequences as text: OSC 0 title, clear-screen, an OSC 8 hidden link', () => {
    expect(escapeControls('a\u001b]0;pwned\u0007b')).toBe('a\\x1b]0;pwned\\x07b')
    expect(escapeControls('\u001b[2J\u001b[H')).toBe('\\x1b[2J\\x1b[H')
    expect(escapeControls('\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\')).toBe(
      '\\x1b]8;;https://evil.example\\x1b\\click\\x1b]8;;\\x1b\\',
    )
  })

  it('names line breaks and tabs, writes C1 and bidi controls as code points', () => {
    expect(escapeControls('a\nb\r\nc\td')).toBe('a\\nb\\r\\nc\\td')
    expect(escapeControls('\u0000\u007f\u009b\u0085')).toBe('\\x00\\x7f\\x9b\\x85')
    expect(escapeControls('file\u202egpj.exe \u2066x\u2069')).toBe('file\\u202egpj.exe \\u2066x\\u2069')
  })

  it('leaves every control visible and nothing raw, for each one alone', () => {
    for (const character of CONTROLS) {
      const shown = escapeControls(`x${character}y`)
      expect(shown, `U+${character.charCodeAt(0).toString(16)}`).not.toMatch(RAW)
      expect(shown.length).toBeGreaterThan(3)
    }
  })

  it('keeps ordinary text as it is, right-to-left marks, accents and emoji included', () => {
    for (const text of ['Backend Engineer', 'Zürich · São Paulo', 'שלום\u200f', 'C:\\path', '🚀 remote', '']) {
      expect(escapeControls(text)).toBe(text)
    }
  })

  it('keeps newlines, tabs and CRLF in text that may span lines, and escapes the rest', () => {
    const multiline = {keepLineBreaks: true}
    expect(escapeControls('line 1\nline 2\r\n\tindented', multiline)).toBe('line 1\nline 2\r\n\tindented')
    expect(escapeControls('over\rwrite \u001b[2J \u202e', multiline)).toBe('over\\rwrite \\x1b[2J \\u202e')
  })
})

describe('escapeJsonControls', () => {
  it('writes DEL, C1 and bidi controls as \\u escapes, and the JSON reads back the same', () => {
    const value = {title: 'a\u001b[2J\u009b\u007f\u202eb', plain: 'Zürich'}
    const json = escapeJsonControls(JSON.stringify(value))
    expect(json).not.toMatch(RAW)
    expect(json).toContain('\\u202e')
    expect(JSON.parse(json)).toEqual(value)
  })
})

describe('findControl', () => {
  it('names the first control character and its position', () => {
    expect(findControl('ab\u001b[2J')).toEqual({code: 'U+001B', position: 3})
    expect(findControl('\u202eabc')).toEqual({code: 'U+202E', position: 1})
    expect(findControl('plain text')).toBeUndefined()
  })

  it('allows line breaks and tabs only when asked, and a CR only before a LF', () => {
    expect(findControl('a\nb')).toEqual({code: 'U+000A', position: 2})
    expect(findControl('a\r\n\tb', {keepLineBreaks: true})).toBeUndefined()
    expect(findControl('a\rb', {keepLineBreaks: true})).toEqual({code: 'U+000D', position: 2})
    expect(findControl('a\n\u0007', {keepLineBreaks: true})).toEqual({code: 'U+0007', position: 3})
  })

  it('gives the same answer when called again (no state kept between calls)', () => {
    expect(findControl('x\u001b')).toEqual(findControl('x\u001b'))
  })
})

describe('board text and links', () => {
  it('removes bidi controls and percent-encodes controls in a URL', () => {
    expect(removeBidiControls('a\u202eb\u2066c\u200f')).toBe('abc\u200f')
    expect(encodeControlsInUrl('https://x.example/\u001b[2J\u202e')).toBe('https://x.example/%1B[2J%E2%80%AE')
    expect(new URL(encodeControlsInUrl('https://x.example/a\u0007b')).href).toBe(
      new URL('https://x.example/a\u0007b').href,
    )
  })
})
