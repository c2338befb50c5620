import {gunzipSync} from 'node:zlib'
import {UnavailableError} from '../core/errors.js'
import {type BoardDirectory, parseBoardDirectory} from '../core/jobs/board-directory.js'
import {shippedFiles} from './shipped-files.js'

/** The directory's file in the shipped data/ directory, made by scripts/build-directory.js. */
const DIRECTORY_FILE = 'directory.tsv.gz'

let directory: BoardDirectory | undefined

/**
 * The directory of employers' boards jobagent ships, read once per process and kept: only `boards find` and `boards
 * directory` ask for it, so no other command pays for reading and parsing it. A missing or damaged file is an
 * incomplete install, which the error says with the file's name.
 */
export function loadBoardDirectory(): BoardDirectory {
  directory ??= readDirectory()
  return directory
}

function readDirectory(): BoardDirectory {
  const hint = 'reinstall jobagent; a careers URL on a known ATS is still recognised: jobagent boards find <URL>'
  const bytes = shippedFiles('data').read(DIRECTORY_FILE)
  if (!bytes)
    throw new UnavailableError(`data/${DIRECTORY_FILE} is missing: jobagent is installed incompletely`, {hint})
  try {
    return parseBoardDirectory(gunzipSync(bytes).toString('utf8'))
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new UnavailableError(`data/${DIRECTORY_FILE} is damaged (${reason})`, {hint, cause: error})
  }
}
