import {createReadStream, existsSync} from 'node:fs'
import {createInterface} from 'node:readline'
import {ConfigurationError, ValidationError} from '../core/errors.js'
import {type Directory, directoryEntry} from '../core/sweep/directory.js'

/**
 * The directory a sweep reads, one entry at a time: the file given (`--directory`), else `sweep.directory`. This
 * is the one place a directory is chosen; the directory shipped with jobagent becomes the default here.
 */
export function openDirectory(
  file: string | undefined,
  configured: string | null,
): {directory: () => Directory; name: string} {
  const path = file ?? configured
  if (path === undefined || path === null) {
    throw new ConfigurationError('no directory given to sweep', {
      hint: 'name a directory file (one {"ats", "slug", "company"} object a line): jobagent sweep --directory FILE, or jobagent config set sweep.directory FILE',
    })
  }
  if (!existsSync(path)) {
    throw new ValidationError(`${path}: no such directory file`, {hint: 'check the path given to --directory'})
  }
  return {directory: () => readDirectoryFile(path), name: path}
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
