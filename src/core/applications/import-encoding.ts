import {ValidationError} from '../errors.js'

/** The encodings an imported file is read in, by the names TextDecoder knows them. */
export type ImportEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252'

const LABELS: Record<ImportEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16LE',
  'utf-16be': 'UTF-16BE',
  'windows-1252': 'Windows-1252',
}

/** The encoding's name as users know it ("UTF-16LE", "Windows-1252"). */
export function encodingLabel(encoding: ImportEncoding): string {
  return LABELS[encoding]
}

const BYTE_ORDER_MARKS: readonly [ImportEncoding, readonly number[]][] = [
  ['utf-8', [0xef, 0xbb, 0xbf]],
  ['utf-16le', [0xff, 0xfe]],
  ['utf-16be', [0xfe, 0xff]],
]

/**
 * Windows-1252's characters for the bytes 80-9F (the five it leaves undefined stay as they are). Node 20's
 * TextDecoder reads those bytes as Latin-1 control characters, so "€" and typographic quotes would be lost.
 */
const WINDOWS_1252_80_TO_9F =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178'

function windows1252Character(control: string): string {
  return WINDOWS_1252_80_TO_9F.charAt(control.charCodeAt(0) - 0x80)
}

/** The refusal of text that holds NUL characters: UTF-16 without a byte order mark, or a spreadsheet file. */
function holdsNul(name: string): ValidationError {
  return new ValidationError(
    `${name} is not text in UTF-8, UTF-16 with a byte order mark or Windows-1252: it holds NUL characters`,
    {
      hint: 'if it is UTF-16 without a byte order mark or a spreadsheet file, save it as CSV UTF-8 (or JSON) and import that file',
    },
  )
}

/**
 * The encoding a file to import (CSV or JSON alike) is read in, from one pass over its bytes, a part at a time.
 * A byte order mark names UTF-8, UTF-16LE or UTF-16BE (what Excel's "Unicode text" writes); without one the
 * bytes are UTF-8 when they are valid UTF-8, else Windows-1252, the encoding of spreadsheets and trackers'
 * exports saved on Windows (it reads Latin-1 files alike). Bytes that are not valid in the encoding their mark
 * names, and text holding NUL characters (UTF-16 without a mark, a spreadsheet rather than its CSV export), are
 * refused with the encoding named.
 */
export function importEncodingOf(parts: Iterable<Uint8Array>, name: string): ImportEncoding {
  let decoder: InstanceType<typeof TextDecoder> | undefined
  let marked: ImportEncoding | undefined
  try {
    for (const bytes of parts) {
      if (!decoder) {
        marked = BYTE_ORDER_MARKS.find(([, mark]) => mark.every((byte, index) => bytes[index] === byte))?.[0]
        decoder = new TextDecoder(marked ?? 'utf-8', {fatal: true})
      }
      if (decoder.decode(bytes, {stream: true}).includes('\u0000')) throw holdsNul(name)
    }
    decoder?.decode()
    return marked ?? 'utf-8'
  } catch (error) {
    if (!(error instanceof TypeError)) throw error
    if (marked) {
      throw new ValidationError(`${name} is not valid ${encodingLabel(marked)}, which its byte order mark announces`, {
        hint: 'save it again as CSV UTF-8 (or JSON) and import that file',
      })
    }
    // Not UTF-8; Windows-1252 gives every byte a character, so only NUL is left to refuse.
    for (const bytes of parts) if (bytes.includes(0)) throw holdsNul(name)
    return 'windows-1252'
  }
}

/**
 * The text of a file to import, a piece per part of its bytes, in the encoding importEncodingOf found. A byte
 * order mark is left out; a character split between two parts comes whole in the next piece.
 */
export function* decodeImportParts(parts: Iterable<Uint8Array>, encoding: ImportEncoding): Generator<string> {
  const decoder = new TextDecoder(encoding)
  for (const bytes of parts) yield readable(decoder.decode(bytes, {stream: true}), encoding)
  yield readable(decoder.decode(), encoding)
}

function readable(text: string, encoding: ImportEncoding): string {
  return encoding === 'windows-1252' ? text.replace(/[\u0080-\u009f]/g, windows1252Character) : text
}
