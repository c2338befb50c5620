/**
 * The one error taxonomy of jobagent. Front ends map these kinds to exit codes (CLI) and status codes (HTTP);
 * anything that is not a JobagentError is a bug and is reported as one.
 */
export type ErrorKind = 'not_found' | 'validation' | 'conflict' | 'unavailable' | 'configuration'

export interface ErrorDetail {
  /** The field, key or column the problem is about, e.g. `status` or `search.tags`. */
  field?: string
  /** 1-based row or line number in an input file. */
  row?: number
  message: string
}

interface ErrorOptions {
  hint?: string
  details?: ErrorDetail[]
  cause?: unknown
  /** Seconds after which retrying may succeed (unavailable dependencies). */
  retryAfterSeconds?: number
  /**
   * The message for API clients when `message` names what only the operator should see (a file path, a store's
   * host, port or database): the kind of store and its state, e.g. `the SQLite database is locked`.
   */
  publicMessage?: string
  /** The details as API clients may see them, where `details` name such things too; none are shown without them. */
  publicDetails?: ErrorDetail[]
  /** What an API client can do about it, when that is worth saying and names nothing internal (the error body's `hint`). */
  publicHint?: string
}

export abstract class JobagentError extends Error {
  abstract readonly kind: ErrorKind
  readonly hint: string | undefined
  readonly details: ErrorDetail[]
  readonly retryAfterSeconds: number | undefined
  readonly publicMessage: string | undefined
  readonly publicDetails: ErrorDetail[] | undefined
  readonly publicHint: string | undefined

  constructor(message: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : {cause: options.cause})
    this.name = new.target.name
    this.hint = options.hint
    this.details = options.details ?? []
    this.retryAfterSeconds = options.retryAfterSeconds
    this.publicMessage = options.publicMessage
    this.publicDetails = options.publicDetails
    this.publicHint = options.publicHint
  }
}

export class NotFoundError extends JobagentError {
  readonly kind = 'not_found' as const
}

export class ValidationError extends JobagentError {
  readonly kind = 'validation' as const
}

export class ConflictError extends JobagentError {
  readonly kind = 'conflict' as const
}

/** A database, board or server we depend on cannot be reached, is locked or is corrupt. */
export class UnavailableError extends JobagentError {
  readonly kind = 'unavailable' as const
}

export class ConfigurationError extends JobagentError {
  readonly kind = 'configuration' as const
}

const UNNAMED_DEPENDENCY = 'a store this request needs is unavailable; see the server log'

/**
 * What an error may tell someone who can reach the API but not the machine. An unavailable dependency is named by
 * its public message only (its kind and state), since its message names paths, hosts and databases; a dependency
 * that gave none is not described at all. The other kinds are about the request and say so as they are.
 */
export function publicMessageOf(error: JobagentError): string {
  return error.publicMessage ?? (error.kind === 'unavailable' ? UNNAMED_DEPENDENCY : error.message)
}

export function isJobagentError(error: unknown): error is JobagentError {
  return error instanceof JobagentError
}

/** What the user can do about an error the operating system reported for a file, by its errno code. */
const FILE_ERRORS: Record<string, {reason: string; hint: (path: string) => string}> = {
  ENOSPC: {
    reason: 'disk full',
    hint: (path) => `free some space on the file system that holds ${path}, then try again`,
  },
  EDQUOT: {
    reason: 'disk full (quota exceeded)',
    hint: (path) => `free some space or raise your quota on the file system that holds ${path}, then try again`,
  },
  EIO: {
    reason: 'input/output error',
    hint: () => 'the disk or file system reported a fault; check it (dmesg, fsck) before trying again',
  },
  EROFS: {
    reason: 'read-only file system',
    hint: () => 'remount it read-write, or point JOBAGENT_HOME at a writable directory',
  },
  EACCES: {
    reason: 'permission denied',
    hint: (path) =>
      `check the owner and permissions of ${path} and its directory (ls -ld), or point JOBAGENT_HOME at a directory you own`,
  },
  EISDIR: {reason: 'it is a directory', hint: (path) => `move the directory ${path} away or use another path`},
  ENOTDIR: {
    reason: 'a part of the path is a file, not a directory',
    hint: () => 'move that file away, or point JOBAGENT_HOME at a directory',
  },
  ENOENT: {reason: 'no such file or directory', hint: () => 'check the path; its directory must exist'},
  EEXIST: {
    reason: 'a file of that name is in the way',
    hint: (path) => `move ${path} away, or point JOBAGENT_HOME at a directory`,
  },
  EMFILE: {
    reason: 'too many open files',
    hint: () => 'raise the limit of open files (ulimit -n) or close other programs, then try again',
  },
  ELOOP: {reason: 'too many levels of symbolic links', hint: () => 'check the symbolic links on the path'},
  ENAMETOOLONG: {reason: 'the file name is too long', hint: () => 'use a shorter path'},
}
FILE_ERRORS.EPERM = FILE_ERRORS.EACCES as (typeof FILE_ERRORS)[string]
FILE_ERRORS.ENFILE = FILE_ERRORS.EMFILE as (typeof FILE_ERRORS)[string]

/** An error the operating system reported (an errno code such as `ENOSPC`), not a bug of jobagent. */
export function isSystemError(error: unknown): error is Error & {code: string; path?: string; syscall?: string} {
  if (!(error instanceof Error)) return false
  const {code, errno} = error as {code?: unknown; errno?: unknown}
  // Node's system errors carry a numeric errno; other libraries' codes (oclif's EEXIT) do not.
  return typeof code === 'string' && (typeof errno === 'number' || Object.hasOwn(FILE_ERRORS, code))
}

/** A directory named where a file to read was asked for (`jobagent import ~/Downloads`): the user meant a file in it. */
export function directoryGivenAsFile(path: string): UnavailableError {
  return new UnavailableError(`cannot read ${path}: it is a directory`, {
    hint: `give the path of a file, such as one in ${path}`,
  })
}

/**
 * A directory a path needs (the data directory, say) is a regular file: told as a failed creation of the directory
 * is, for a reader that creates nothing.
 */
export function fileInTheWay(dir: string, options: Pick<ErrorOptions, 'publicMessage'> = {}): UnavailableError {
  const known = FILE_ERRORS.EEXIST as (typeof FILE_ERRORS)[string]
  return new UnavailableError(`cannot open the directory ${dir}: ${known.reason}`, {...options, hint: known.hint(dir)})
}

/**
 * Turns an operating-system error about `path` into an UnavailableError that names the path, the reason and what
 * to do: the disk, the permissions or the directory layout are the user's to fix, never a bug. A failed write
 * (`action` "write") says that the file was not changed: every writer replaces a file only after the new content
 * is complete on disk. Anything else is returned as it is.
 */
export function describeFileError(error: unknown, path: string, action = 'write'): unknown {
  if (!isSystemError(error)) return error
  // A file to read that is not there is a mistyped name, not a directory to create first, as it is for a write.
  if (action === 'read' && error.code === 'ENOENT' && path !== '') {
    return new UnavailableError(`cannot read ${path}: the file does not exist`, {
      cause: error,
      hint: 'check the name of the file and of its directory (a relative path starts at the current directory)',
    })
  }
  const known = FILE_ERRORS[error.code]
  const reason = known?.reason ?? error.message
  const unchanged =
    path !== '' && action === 'write' && (error.code === 'ENOSPC' || error.code === 'EDQUOT' || error.code === 'EIO')
  const message = unchanged
    ? `${reason}: ${path} was not changed`
    : `cannot ${action}${path === '' ? '' : ` ${path}`}: ${reason}`
  return new UnavailableError(message, {
    cause: error,
    ...(known ? {hint: known.hint(path || 'the data directory')} : {}),
  })
}
