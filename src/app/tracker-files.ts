import {closeSync, openSync, readSync} from 'node:fs'
import {stat} from 'node:fs/promises'
import {basename, extname, join, resolve} from 'node:path'
import type {ApplicationService, ImportRow} from '../core/applications/application-service.js'
import type {ImportOutcome} from '../core/applications/application-store.js'
import type {ContactService} from '../core/applications/contact-service.js'
import {applicationsToCsv, parseApplicationsCsv} from '../core/applications/csv.js'
import {decodeImportParts, type ImportEncoding, importEncodingOf} from '../core/applications/import-encoding.js'
import {parseTrackerExport, type TrackerExportFormat, trackerExportHint} from '../core/applications/tracker-exports.js'
import {describeFileError, directoryGivenAsFile, ValidationError} from '../core/errors.js'
import {jsonSyntaxMessage} from '../core/json-syntax.js'
import {type Clock, localTimestamp} from '../core/time.js'
import {writeFileDurably} from '../storage/durable-file.js'

/** What an import of a file did, the file and the encoding its text was read in. */
export interface FileImportOutcome extends ImportOutcome {
  file: string
  encoding: ImportEncoding
}

export interface ExportResult {
  path: string
  count: number
}

/** CSV export and JSON/CSV import of the tracker: the file side of the application service. */
export class TrackerFiles {
  constructor(
    private readonly applications: ApplicationService,
    private readonly contacts: ContactService,
    private readonly dataDir: string,
    private readonly clock: Clock,
  ) {}

  defaultExportPath(now: Date = this.clock.now()): string {
    return join(this.dataDir, `applications-${localTimestamp(now).replace(/[:.]/g, '-')}.csv`)
  }

  async exportCsv(options: {output?: string; raw?: boolean} = {}): Promise<ExportResult> {
    const named = options.output === undefined ? null : resolve(options.output)
    // A directory named as the output (`--output ~/Documents`) gets the file of the default name, as `cp` does.
    const path =
      named === null
        ? this.defaultExportPath()
        : (await isDirectory(named))
          ? join(named, basename(this.defaultExportPath()))
          : named
    const {applications} = await this.applications.list()
    const exported = await this.contacts.withContacts(applications)
    writeFileDurably(path, applicationsToCsv(exported, {raw: options.raw ?? false}))
    return {path, count: applications.length}
  }

  /**
   * Imports jobagent's own JSON/CSV, or with `from` another tracker's CSV export, through the same import. A CSV
   * is read a part at a time while it is imported (one pass over its bytes finds the encoding first), so the
   * memory an import takes grows with a part of the file, not with the file.
   */
  async importFile(file: string, options: {update: boolean; from?: TrackerExportFormat}): Promise<FileImportOutcome> {
    const path = resolve(file)
    try {
      if ((await stat(path)).isDirectory()) throw directoryGivenAsFile(path)
    } catch (error) {
      throw describeFileError(error, path, 'read')
    }
    const parts = fileParts(path)
    const encoding = importEncodingOf(parts, path)
    return {...(await this.importPieces(decodeImportParts(parts, encoding), path, options)), file: path, encoding}
  }

  /** Imports the text of a file as importFile does; `name` is the file it came from, named in every error. */
  importText(
    text: string,
    name: string,
    options: {update: boolean; from?: TrackerExportFormat},
  ): Promise<ImportOutcome> {
    return this.importPieces([text], name, options)
  }

  private async importPieces(
    pieces: Iterable<string>,
    name: string,
    options: {update: boolean; from?: TrackerExportFormat},
  ): Promise<ImportOutcome> {
    const iterator = pieces[Symbol.iterator]()
    try {
      const first = iterator.next()
      const text = rejoined(first.done ? '' : first.value, iterator)
      const rows = options.from
        ? parseTrackerExport(options.from, text, name)
        : parseImportFile(first.done ? '' : first.value, text, name)
      return await this.importRows(rows, name, options)
    } finally {
      // A file left half read (a refused row, a failed write) is closed here.
      iterator.return?.()
    }
  }

  private async importRows(
    rows: Iterable<ImportRow>,
    name: string,
    options: {update: boolean},
  ): Promise<ImportOutcome> {
    try {
      return await this.applications.import(rows, options)
    } catch (error) {
      if (error instanceof ValidationError) {
        throw new ValidationError(`${name}: ${error.message}`, {details: error.details, hint: error.hint ?? ''})
      }
      throw error
    }
  }
}

/** The pieces of a text again, the first already taken from `rest`. */
function* rejoined(first: string, rest: Iterator<string>): Generator<string> {
  yield first
  for (let next = rest.next(); !next.done; next = rest.next()) yield next.value
}

/** How much of a file is read at a time. */
const PART_BYTES = 1 << 20

/**
 * The bytes of a file, a part at a time, each time it is iterated; the file is open only while it is read, and a
 * failed read names it. The parts share one buffer: each is read before the next is asked for.
 */
function fileParts(path: string): Iterable<Uint8Array> {
  return {
    *[Symbol.iterator]() {
      let fd: number | undefined
      try {
        fd = openSync(path, 'r')
        const buffer = Buffer.alloc(PART_BYTES)
        for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
          yield buffer.subarray(0, read)
        }
      } catch (error) {
        throw describeFileError(error, path, 'read')
      } finally {
        if (fd !== undefined) closeSync(fd)
      }
    },
  }
}

/**
 * JSON when the file says so by extension or content, CSV otherwise. A CSV's rows are read as they are imported;
 * JSON is parsed whole.
 */
function parseImportFile(first: string, text: Iterable<string>, path: string): Iterable<ImportRow> {
  const start = first.replace(/^\uFEFF/, '').trimStart()
  const looksJson = extname(path).toLowerCase() === '.json' || start.startsWith('[') || start.startsWith('{')
  if (!looksJson) return parseApplicationsCsv(text, path, {otherFormatHint: trackerExportHint})
  const trimmed = [...text]
    .join('')
    .replace(/^\uFEFF/, '')
    .trimStart()
  let data: unknown
  try {
    data = JSON.parse(trimmed)
  } catch (error) {
    throw new ValidationError(`${path} is not valid JSON: ${jsonSyntaxMessage(error, trimmed)}`, {
      hint: 'import a JSON array of application records (as printed by jobagent status --json) or a CSV export',
    })
  }
  const records = Array.isArray(data)
    ? data
    : Array.isArray((data as {applications?: unknown})?.applications)
      ? (data as {applications: unknown[]}).applications
      : undefined
  if (!records) {
    throw new ValidationError(`${path} must hold a JSON array of application records`, {
      hint: 'export one with: jobagent status --json',
    })
  }
  return records.map((value, index) => ({row: index + 1, value}))
}

/** Whether `path` is a directory; false when it is anything else or nothing (the write then says why it fails). */
async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}
