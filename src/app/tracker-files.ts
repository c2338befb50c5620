import {readFile, stat} from 'node:fs/promises'
import {extname, join, resolve} from 'node:path'
import type {ApplicationService, ImportRow} from '../core/applications/application-service.js'
import type {ImportOutcome} from '../core/applications/application-store.js'
import type {ContactService} from '../core/applications/contact-service.js'
import {applicationsToCsv, parseApplicationsCsv} from '../core/applications/csv.js'
import {decodeImportFile, type ImportEncoding} from '../core/applications/import-encoding.js'
import {parseTrackerExport, type TrackerExportFormat, trackerExportHint} from '../core/applications/tracker-exports.js'
import {describeFileError, directoryGivenAsFile, ValidationError} from '../core/errors.js'
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
    const path = resolve(options.output ?? this.defaultExportPath())
    const {applications} = await this.applications.list()
    const exported = await this.contacts.withContacts(applications)
    writeFileDurably(path, applicationsToCsv(exported, {raw: options.raw ?? false}))
    return {path, count: applications.length}
  }

  /** Imports jobagent's own JSON/CSV, or with `from` another tracker's CSV export, through the same import. */
  async importFile(file: string, options: {update: boolean; from?: TrackerExportFormat}): Promise<FileImportOutcome> {
    const path = resolve(file)
    let bytes: Uint8Array
    try {
      if ((await stat(path)).isDirectory()) throw directoryGivenAsFile(path)
      bytes = await readFile(path)
    } catch (error) {
      throw describeFileError(error, path, 'read')
    }
    const {text, encoding} = decodeImportFile(bytes, path)
    return {...(await this.importText(text, path, options)), file: path, encoding}
  }

  /** Imports the text of a file as importFile does; `name` is the file it came from, named in every error. */
  async importText(
    text: string,
    name: string,
    options: {update: boolean; from?: TrackerExportFormat},
  ): Promise<ImportOutcome> {
    const rows = options.from ? parseTrackerExport(options.from, text, name) : parseImportFile(text, name)
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

/** JSON when the file says so by extension or content, CSV otherwise. */
function parseImportFile(text: string, path: string): ImportRow[] {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart()
  const looksJson = extname(path).toLowerCase() === '.json' || trimmed.startsWith('[') || trimmed.startsWith('{')
  if (!looksJson) return parseApplicationsCsv(text, path, {otherFormatHint: trackerExportHint})
  let data: unknown
  try {
    data = JSON.parse(trimmed)
  } catch (error) {
    throw new ValidationError(`${path} is not valid JSON: ${(error as Error).message}`, {
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
