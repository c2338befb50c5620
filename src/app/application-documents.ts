import {createHash} from 'node:crypto'
import {existsSync} from 'node:fs'
import {readFile, stat} from 'node:fs/promises'
import {extname, join, resolve} from 'node:path'
import type {ApplicationDocument, DocumentKind} from '../core/applications/application.js'
import type {ApplicationService} from '../core/applications/application-service.js'
import type {StatusUpdate} from '../core/applications/application-store.js'
import {describeFileError, directoryGivenAsFile, ValidationError} from '../core/errors.js'
import {type Clock, offsetTimestamp} from '../core/time.js'
import {ensurePrivateDirectory, writeFileDurably} from '../storage/durable-file.js'

/** The largest document recorded, in bytes: a CV or a letter, not an archive. */
const DOCUMENT_MAX_BYTES = 20 * 1024 * 1024

/** The files given for each kind of document (`--cv`, `--cover-letter`). */
export type DocumentFiles = Partial<Record<DocumentKind, string>>

const FLAG_OF: Record<DocumentKind, string> = {cv: '--cv', cover_letter: '--cover-letter'}

/**
 * Which documents went with an application: each file's path and SHA-256, and with `keepCopy` a copy under
 * `<data dir>/documents/`, named by its hash (the same file sent twice is kept once), written durably.
 */
export class ApplicationDocuments {
  constructor(
    private readonly applications: ApplicationService,
    private readonly dataDir: string,
    private readonly clock: Clock,
  ) {}

  /** The directory the copies are kept in. */
  get copiesDir(): string {
    return join(this.dataDir, 'documents')
  }

  /** Records the documents with the application; every file is read first, so one that cannot be read records none. */
  async record(ref: string, files: DocumentFiles, options: {keepCopy: boolean}): Promise<StatusUpdate> {
    return this.applications.recordDocuments(ref, await this.read(files, options))
  }

  /**
   * The documents as they would be recorded, each file read and hashed (and copied with `keepCopy`): a command reads
   * them before it tracks an application, so a file that cannot be read leaves the tracker as it was.
   */
  async read(files: DocumentFiles, options: {keepCopy: boolean}): Promise<ApplicationDocument[]> {
    const given = (Object.entries(files) as [DocumentKind, string | undefined][]).filter(
      (entry): entry is [DocumentKind, string] => entry[1] !== undefined,
    )
    if (given.length === 0) {
      throw new ValidationError('no document given', {hint: 'name one: --cv FILE or --cover-letter FILE'})
    }
    const at = offsetTimestamp(this.clock.now())
    const read = await Promise.all(given.map(async ([kind, file]) => ({kind, ...(await readDocument(kind, file))})))
    return read.map(({kind, path, bytes}) => {
      const sha256 = createHash('sha256').update(bytes).digest('hex')
      return {kind, path, sha256, copy: options.keepCopy ? this.keepCopy(path, sha256, bytes) : null, recorded_at: at}
    })
  }

  private keepCopy(path: string, sha256: string, bytes: Uint8Array): string {
    ensurePrivateDirectory(this.copiesDir)
    const copy = join(this.copiesDir, `${sha256}${extname(path).toLowerCase().slice(0, 10)}`)
    // Named by its hash: a copy there already holds these bytes.
    if (!existsSync(copy)) writeFileDurably(copy, bytes)
    return copy
  }
}

async function readDocument(kind: DocumentKind, file: string): Promise<{path: string; bytes: Uint8Array}> {
  const path = resolve(file)
  try {
    const info = await stat(path)
    if (info.isDirectory()) throw directoryGivenAsFile(path)
    if (info.size > DOCUMENT_MAX_BYTES) {
      throw new ValidationError(
        `${FLAG_OF[kind]} ${path} is ${Math.ceil(info.size / 1024 / 1024)} MB, more than a document of ${DOCUMENT_MAX_BYTES / 1024 / 1024} MB`,
        {
          details: [{field: kind, message: 'file too large'}],
          hint: 'give the file you sent (a PDF or a text), not an archive',
        },
      )
    }
    return {path, bytes: await readFile(path)}
  } catch (error) {
    throw describeFileError(error, path, 'read')
  }
}
