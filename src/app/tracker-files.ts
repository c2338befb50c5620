import type {Stats} from 'node:fs'
import {lstat, readFile, stat} from 'node:fs/promises'
import {extname, join, resolve} from 'node:path'
import writeFileAtomic from 'write-file-atomic'
import type {ApplicationService, ImportRow} from '../core/applications/application-service.js'
import type {ImportOutcome} from '../core/applications/application-store.js'
import {applicationsToCsv, parseApplicationsCsv} from '../core/applications/csv.js'
import {UnavailableError, ValidationError} from '../core/errors.js'
import {localTimestamp} from '../core/time.js'

export interface ExportResult {
  path: string
  count: number
}

function fileError(action: string, path: string, error: unknown): UnavailableError {
  const code = (error as NodeJS.ErrnoException).code
  const reason =
    code === 'ENOENT'
      ? 'no such file or directory'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'it is a directory'
          : (error as Error).message
  return new UnavailableError(`cannot ${action} ${path}: ${reason}`, {cause: error})
}

/**
 * Writes all bytes to a temporary file beside the target, fsyncs, then renames over it. A symbolic link at the
 * target is refused: write-file-atomic resolves it and would replace whatever file it points at.
 */
export async function writeFileAtomically(path: string, content: string): Promise<void> {
  await refuseLinkOrDirectory(path)
  try {
    await writeFileAtomic(path, content, {encoding: 'utf8', fsync: true})
  } catch (error) {
    throw fileError('write', path, error)
  }
}

async function refuseLinkOrDirectory(path: string): Promise<void> {
  let found: Stats
  try {
    found = await lstat(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw fileError('write', path, error)
  }
  if (found.isSymbolicLink()) {
    throw new UnavailableError(`cannot write ${path}: it is a symbolic link; refusing to write through it`, {
      hint: 'remove the link or write to another path',
    })
  }
  if (found.isDirectory()) throw fileError('write', path, Object.assign(new Error('directory'), {code: 'EISDIR'}))
}

/** CSV export and JSON/CSV import of the tracker: the file side of the application service. */
export class TrackerFiles {
  constructor(
    private readonly applications: ApplicationService,
    private readonly dataDir: string,
  ) {}

  defaultExportPath(now: Date = new Date()): string {
    return join(this.dataDir, `applications-${localTimestamp(now).replace(/[:.]/g, '-')}.csv`)
  }

  async exportCsv(options: {output?: string; raw?: boolean} = {}): Promise<ExportResult> {
    const path = resolve(options.output ?? this.defaultExportPath())
    const {applications} = await this.applications.list()
    await writeFileAtomically(path, applicationsToCsv(applications, {raw: options.raw ?? false}))
    return {path, count: applications.length}
  }

  async importFile(file: string, options: {update: boolean}): Promise<ImportOutcome & {file: string}> {
    const path = resolve(file)
    let text: string
    try {
      if ((await stat(path)).isDirectory()) throw Object.assign(new Error('directory'), {code: 'EISDIR'})
      text = await readFile(path, 'utf8')
    } catch (error) {
      throw fileError('read', path, error)
    }
    const rows = parseImportFile(text, path)
    try {
      return {...(await this.applications.import(rows, options)), file: path}
    } catch (error) {
      if (error instanceof ValidationError) {
        throw new ValidationError(`${path}: ${error.message}`, {details: error.details, hint: error.hint ?? ''})
      }
      throw error
    }
  }
}

/** JSON when the file says so by extension or content, CSV otherwise. */
export function parseImportFile(text: string, path: string): ImportRow[] {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart()
  const looksJson = extname(path).toLowerCase() === '.json' || trimmed.startsWith('[') || trimmed.startsWith('{')
  if (!looksJson) return parseApplicationsCsv(text, path)
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
