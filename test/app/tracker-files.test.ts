import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {TrackerFiles} from '../../src/app/tracker-files.js'
import {ValidationError} from '../../src/core/errors.js'
import {tempDir} from '../helpers/cli.js'
import {memoryTracker, type Tracker} from '../helpers/tracker.js'

let dir: ReturnType<typeof tempDir>
let tracker: Tracker
let files: TrackerFiles

beforeEach(() => {
  dir = tempDir('jobagent-tracker-files-')
  tracker = memoryTracker()
  files = new TrackerFiles(tracker.service, tracker.contacts, dir.path, tracker.clock)
})

afterEach(() => {
  tracker.db.close()
  dir.cleanup()
})

function write(name: string, bytes: Uint8Array): string {
  const path = join(dir.path, name)
  writeFileSync(path, bytes)
  return path
}

/** UTF-16 bytes of `text` with the byte order mark a Windows program writes first. */
function utf16(text: string, order: 'le' | 'be'): Uint8Array {
  const bytes = Buffer.from(`\uFEFF${text}`, 'utf16le')
  return order === 'le' ? bytes : bytes.swap16()
}

async function companies(): Promise<string[]> {
  return (await tracker.service.list()).applications.map((application) => application.company).sort()
}

const HUNTR = 'Employer,Job Title,List,URL,Salary\r\nMüller GmbH,Engineer,Applied,https://example.org/jobs/1,€70k\r\n'

describe('the encoding of an imported file', () => {
  it('reads a Windows-1252 Huntr export (not valid UTF-8) as Windows-1252 and says so', async () => {
    // Given a Huntr export saved on Windows: ü is the byte FC and € the byte 80
    const path = write('huntr.csv', Buffer.from(HUNTR.replace('€', '\u0080'), 'latin1'))
    // When it is imported
    const outcome = await files.importFile(path, {update: false, from: 'huntr'})
    // Then the names and notes keep their letters, and the outcome names the encoding
    expect(outcome).toMatchObject({inserted: 1, encoding: 'windows-1252', file: path})
    const [imported] = (await tracker.service.list()).applications
    expect(imported).toMatchObject({company: 'Müller GmbH', notes: '', salary_expected: '€70k'})
  })

  it('reads UTF-16LE and UTF-16BE files by their byte order mark, CSV and JSON alike', async () => {
    const json = JSON.stringify([
      {title: 'Dev', company: 'Zoë Ltd', url: 'https://example.org/jobs/2', source: 'manual'},
    ])
    const csv = write('huntr-utf16.csv', utf16(HUNTR, 'le'))
    const array = write('applications.json', utf16(json, 'be'))
    expect(await files.importFile(csv, {update: false, from: 'huntr'})).toMatchObject({encoding: 'utf-16le'})
    expect(await files.importFile(array, {update: false})).toMatchObject({encoding: 'utf-16be'})
    expect(await companies()).toEqual(['Müller GmbH', 'Zoë Ltd'])
  })

  it('reads UTF-8 with or without a byte order mark as UTF-8', async () => {
    const plain = write('plain.csv', Buffer.from(HUNTR, 'utf8'))
    const marked = write('marked.csv', Buffer.from(`\uFEFF${HUNTR.replace('jobs/1', 'jobs/3')}`, 'utf8'))
    expect(await files.importFile(plain, {update: false, from: 'huntr'})).toMatchObject({encoding: 'utf-8'})
    expect(await files.importFile(marked, {update: false, from: 'huntr'})).toMatchObject({encoding: 'utf-8'})
    expect(await companies()).toEqual(['Müller GmbH', 'Müller GmbH'])
  })

  it('refuses a file with NUL characters (UTF-16 without a mark, a spreadsheet), naming the encodings it reads', async () => {
    const path = write('no-mark.csv', Buffer.from(HUNTR, 'utf16le'))
    const error = await files.importFile(path, {update: false, from: 'huntr'}).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).message).toBe(
      `${path} is not text in UTF-8, UTF-16 with a byte order mark or Windows-1252: it holds NUL characters`,
    )
    expect((error as ValidationError).hint).toContain('save it as CSV UTF-8')
    expect(await companies()).toEqual([])
  })

  it('refuses a file whose bytes break the encoding its byte order mark names', async () => {
    // An odd number of bytes cannot be UTF-16.
    const path = write('broken.csv', Uint8Array.from([0xff, 0xfe, 0x41, 0x00, 0x42]))
    const error = await files.importFile(path, {update: false}).catch((caught: unknown) => caught)
    expect((error as ValidationError).message).toBe(
      `${path} is not valid UTF-16LE, which its byte order mark announces`,
    )
  })
})

describe('a file imported a part at a time', () => {
  /** A CSV of `count` rows whose companies and notes hold characters of one to four bytes in UTF-8. */
  function csvOf(count: number, notes: (index: number) => string): string {
    const lines = ['title,company,location,url,source,applied_date,status,notes']
    for (let index = 0; index < count; index++) {
      lines.push(
        `Dev ${index},Zoë ${index % 7},Köln,https://example.org/jobs/${index},manual,,applied,"${notes(index)}"`,
      )
    }
    return `${lines.join('\r\n')}\r\n`
  }

  it.each([
    ['UTF-8', (text: string) => Buffer.from(text, 'utf8'), 'utf-8', '🚀 “quoted” ünïcode'],
    ['UTF-16LE', (text: string) => utf16(text, 'le'), 'utf-16le', '🚀 “quoted” ünïcode'],
    [
      'Windows-1252',
      (text: string) => Buffer.from(text.replaceAll('€', '\u0080'), 'latin1'),
      'windows-1252',
      '€ ünïcode',
    ],
  ])(
    'reads a %s file of several megabytes whole, characters and line breaks cut between parts included',
    async (_name, encode, encoding, marks) => {
      // Rows of varied length, so that the parts of the file end within characters, rows and line breaks.
      const text = csvOf(12_000, (index) => `${marks} ${'x'.repeat(index % 500)}\r\nline two`)
      const path = write('big.csv', encode(text))
      const outcome = await files.importFile(path, {update: false})
      expect(outcome).toMatchObject({inserted: 12_000, encoding})
      const {applications} = await tracker.service.list()
      expect(applications).toHaveLength(12_000)
      const byUrl = new Map(applications.map((application) => [application.url, application]))
      for (const index of [0, 1, 4999, 11_999]) {
        expect(byUrl.get(`https://example.org/jobs/${index}`)).toMatchObject({
          company: `Zoë ${index % 7}`,
          location: 'Köln',
          notes: `${marks} ${'x'.repeat(index % 500)}\r\nline two`,
        })
      }
    },
    120_000,
  )

  it('names a row near the end of a large file and writes none of the rows before it', async () => {
    const text = csvOf(12_000, (index) => 'x'.repeat(index % 300)).replace(
      'https://example.org/jobs/11990,manual,,applied',
      'https://example.org/jobs/11990,manual,,hired',
    )
    const path = write('late-error.csv', Buffer.from(text, 'utf8'))
    const error = await files.importFile(path, {update: false}).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).message).toBe(`${path}: 1 invalid row(s); nothing was imported`)
    expect((error as ValidationError).details).toEqual([expect.objectContaining({row: 11_992, field: 'status'})])
    expect(await tracker.service.counts()).toEqual({total: 0, applied: 0, pending: 0})
  }, 120_000)
})
