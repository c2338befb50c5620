import {existsSync, readFileSync, statSync} from 'node:fs'
import {dirname, resolve} from 'node:path'
import {ConfigurationError, ValidationError} from '../core/errors.js'
import type {BoardRef, SourceConfig} from '../core/jobs/source-config.js'
import {directoryEntry} from '../core/sweep/directory.js'
import {writeFileDurably} from '../storage/durable-file.js'

/**
 * The most boards one `boards_file` names: a run asks each of them daily, so a larger list is a directory to sweep
 * (`jobagent sweep --directory FILE`), not companies to watch.
 */
const MAX_FILE_BOARDS = 2000
/** A file of 2,000 lines of the directory's shape stays well under this. */
const MAX_FILE_BYTES = 2 * 1024 * 1024
/** A slug is one word of a URL path (Workday's `<tenant>.<wdN>/<site>` the longest). */
const MAX_SLUG = 300

const HINT =
  'each line is a slug (`acme`), `slug Company Name`, or {"ats": "greenhouse", "slug": "acme", "company": "Acme"}; `#` starts a comment'

/** The path a `boards_file` names: relative to the config file's folder, so a cron job's working folder does not matter. */
function boardsFilePath(file: string, configFile: string): string {
  return resolve(dirname(configFile), file)
}

/**
 * The boards of an entry's `boards_file`, in the file's order: one a line, a slug with an optional company name after
 * a space, or a line of the directory's JSONL shape of the entry's ATS; blank lines and `#` comments skipped, a
 * repeated slug kept once. A file that is missing, unreadable, too large or has a bad line is a ConfigurationError
 * naming the file (and the line).
 */
export function readBoardsFile(config: SourceConfig, configFile: string): BoardRef[] {
  const path = boardsFilePath(config.boards_file as string, configFile)
  return boardsOfText(readText(path), path, config.type)
}

/** The boards of a file's text, as readBoardsFile reads them; `path` names the file in its errors. */
function boardsOfText(text: string, path: string, type: string): BoardRef[] {
  const boards: BoardRef[] = []
  const seen = new Set<string>()
  const lines = text.split(/\r?\n/)
  for (const [index, raw] of lines.entries()) {
    const where = `${path}:${index + 1}`
    const board = boardOfLine(raw, where, type)
    if (!board || seen.has(board.slug)) continue
    seen.add(board.slug)
    if (boards.length === MAX_FILE_BOARDS) {
      throw new ConfigurationError(`${path} names more than ${MAX_FILE_BOARDS} boards`, {
        hint: `keep the companies to watch under ${MAX_FILE_BOARDS}, or search them all with: jobagent sweep --directory FILE`,
      })
    }
    boards.push(board)
  }
  if (boards.length === 0) {
    throw new ConfigurationError(`${path} names no boards`, {hint: HINT})
  }
  return boards
}

function readText(path: string): string {
  try {
    const size = statSync(path).size
    if (size > MAX_FILE_BYTES) {
      throw new ConfigurationError(`${path} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`, {
        hint: `a boards_file names at most ${MAX_FILE_BOARDS} boards, one a line`,
      })
    }
    return readFileSync(path, 'utf8')
  } catch (error) {
    if (error instanceof ConfigurationError) throw error
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? (error as Error).message})`
    throw new ConfigurationError(`the boards_file ${path} ${why}`, {
      hint: 'give the path of a file of slugs, relative to the config file, in the entry\'s "boards_file"',
    })
  }
}

function boardOfLine(raw: string, where: string, type: string): BoardRef | null {
  const line = raw.trim()
  if (line === '' || line.startsWith('#')) return null
  if (line.startsWith('{')) {
    let entry: ReturnType<typeof directoryEntry>
    try {
      entry = directoryEntry(line, where)
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      throw new ConfigurationError(error.message, {hint: HINT})
    }
    if (!entry) return null
    if (entry.ats !== type)
      throw new ConfigurationError(`${where}: a board of ${entry.ats} in a ${type} entry`, {hint: HINT})
    return {slug: entry.slug, company: entry.company}
  }
  const space = line.search(/\s/)
  const slug = space < 0 ? line : line.slice(0, space)
  const rest = space < 0 ? '' : line.slice(space).trim()
  const company = rest.startsWith('#') ? '' : rest
  if (slug.length > MAX_SLUG || /[?#\\]/.test(slug)) {
    throw new ConfigurationError(`${where}: ${JSON.stringify(slug.slice(0, 60))} is no board slug`, {hint: HINT})
  }
  return company ? {slug, company} : {slug}
}

/** A file of boards read to add to: its path, its text and the boards it names (none when it does not exist yet). */
interface HeldBoardsFile {
  path: string
  text: string | null
  boards: readonly BoardRef[]
}

/** A file of boards as an entry of `type` reads it, read once for both the slugs it names and the boards added. */
export function heldBoardsFile(file: string, type: SourceConfig['type'], configFile: string): HeldBoardsFile {
  const path = boardsFilePath(file, configFile)
  if (!existsSync(path)) return {path, text: null, boards: []}
  const text = readText(path)
  return {path, text, boards: boardsOfText(text, path, type)}
}

/**
 * Adds boards to a file of boards (created when missing), one line each, `slug Company Name`, after what it held
 * when read, comments and all; written whole, synced, then renamed. A file that would name more than
 * MAX_FILE_BOARDS is left as it is.
 */
export function appendToBoardsFile(held: HeldBoardsFile, boards: readonly BoardRef[]): void {
  const {path} = held
  if (held.boards.length + boards.length > MAX_FILE_BOARDS) {
    throw new ConfigurationError(`${path} would name more than ${MAX_FILE_BOARDS} boards`, {
      hint: `remove the companies you no longer follow from ${path}, or follow fewer (a higher --min-score)`,
    })
  }
  // A company name is one line of text after the slug; one that starts with # would read as a comment.
  const company = (name: string | undefined) =>
    (name ?? '')
      .replace(/[\s\p{Cc}]+/gu, ' ')
      .trim()
      .replace(/^#+\s*/, '')
  const lines = boards.map((board) => [board.slug, company(board.company)].filter(Boolean).join(' '))
  const before = held.text ?? '# Boards jobagent sweep --follow added: a slug and the company a line\n'
  writeFileDurably(path, `${before}${before.endsWith('\n') ? '' : '\n'}${lines.join('\n')}\n`)
}
