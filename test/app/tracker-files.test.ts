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
