import {closeSync, createReadStream, existsSync, openSync, readFileSync, readSync} from 'node:fs'
import {createInterface} from 'node:readline'
import {gunzipSync} from 'node:zlib'
import {ValidationError} from '../core/errors.js'
import {type BoardDirectory, DirectoryFormatError, parseBoardDirectory} from '../core/jobs/board-directory.js'
import {type Directory, directoryEntry} from '../core/sweep/directory.js'
import {loadBoardDirectory} from './board-directory.js'

/** The name a sweep of the shipped directory is kept under, so a stopped one resumes on it. */
const SHIPPED = 'shipped directory'

/** A larger directory file is no list of boards (the shipped one is about 1 MB). */
const MAX_DIRECTORY_BYTES = 256 * 1024 * 1024

/**
 * The directory a sweep reads, one entry at a time: the file given (`--directory`), else `sweep.directory`, else
 * the directory shipped with jobagent. A file is either of the shared JSONL shape (one {"ats", "slug", "company"}
 * object a line) or of the shipped directory's own format (data/directory.tsv.gz, gzipped or not), told apart by
 * its first bytes. This is the one place a directory is chosen.
 */
export function openDirectory(
  file: string | undefined,
  configured: string | null,
): {directory: (ats?: string) => Directory; name: string} {
  const path = file ?? configured ?? undefined
  if (path === undefined) {
    const shipped = loadBoardDirectory()
    return {directory: (ats) => entriesOf(shipped, ats), name: SHIPPED}
  }
  if (!existsSync(path)) {
    throw new ValidationError(`${path}: no such directory file`, {
      hint: 'check the path given to --directory (or sweep.directory); without either, the shipped directory is swept',
    })
  }
  const form = fileForm(path)
  if (form === 'jsonl') return {directory: () => readDirectoryFile(path), name: path}
  const directory = readShippedForm(path, form === 'gzip')
  return {directory: (ats) => entriesOf(directory, ats), name: path}
}

/** How a directory file is written: JSONL, or the shipped format, gzipped or as text. */
function fileForm(path: string): 'jsonl' | 'gzip' | 'text' {
  const head = Buffer.alloc(20)
  const fd = openSync(path, 'r')
  let read: number
  try {
    read = readSync(fd, head, 0, head.length, 0)
  } finally {
    closeSync(fd)
  }
  if (read >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip'
  return head.subarray(0, read).toString('utf8').startsWith('jobagent-directory ') ? 'text' : 'jsonl'
}

function readShippedForm(path: string, gzipped: boolean): BoardDirectory {
  const hint =
    'a directory file is one {"ats", "slug", "company"} object a line, or of the form of data/directory.tsv.gz'
  let text: string
  try {
    const bytes = readFileSync(path)
    text = (gzipped ? gunzipSync(bytes, {maxOutputLength: MAX_DIRECTORY_BYTES}) : bytes).toString('utf8')
  } catch (error) {
    throw new ValidationError(`${path}: not a readable directory (${(error as Error).message})`, {hint})
  }
  try {
    return parseBoardDirectory(text)
  } catch (error) {
    if (error instanceof DirectoryFormatError) throw new ValidationError(`${path}: ${error.message}`, {hint})
    throw error
  }
}

/** A directory of the shipped format as a sweep reads it, one ATS's boards after another (or one ATS's only). */
async function* entriesOf(directory: BoardDirectory, ats?: string): Directory {
  for (const {type, boards} of directory.counts()) {
    if (boards === 0 || (ats !== undefined && ats.toLowerCase() !== type)) continue
    for (const board of directory.boardsOf(type)) {
      yield {
        ats: type,
        slug: board.slug,
        company: board.company ?? board.slug,
        ...(board.region === 'eu' ? {region: 'eu' as const} : {}),
      }
    }
  }
}

async function* readDirectoryFile(path: string): Directory {
  const lines = createInterface({
    input: createReadStream(path, {encoding: 'utf8'}),
    crlfDelay: Number.POSITIVE_INFINITY,
  })
  let number = 0
  for await (const line of lines) {
    number++
    const entry = directoryEntry(line, `${path}:${number}`)
    if (entry) yield entry
  }
}

/** The companies of a `--companies` file: one name or slug a line, blank lines and `#` comments left out. */
export async function readCompanies(path: string): Promise<string[]> {
  if (!existsSync(path))
    throw new ValidationError(`${path}: no such file`, {hint: 'check the path given to --companies'})
  const names: string[] = []
  const lines = createInterface({
    input: createReadStream(path, {encoding: 'utf8'}),
    crlfDelay: Number.POSITIVE_INFINITY,
  })
  for await (const line of lines) {
    const name = line.trim()
    if (name !== '' && !name.startsWith('#')) names.push(name)
    if (names.length > 100_000) throw new ValidationError(`${path}: more than 100,000 companies`)
  }
  return names
}
