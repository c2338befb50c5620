import {createHash} from 'node:crypto'
import {existsSync, readFileSync, statSync} from 'node:fs'
import {join, relative, resolve, sep} from 'node:path'
import type {ApplicationDocument} from '../core/applications/application.js'
import {
  BACKUP_FORMAT,
  BACKUP_MAX_BYTES,
  BACKUP_VERSION,
  type BackedUpApplication,
  type Backup,
  type BackupStore,
  backupText,
  COPY_NAME,
  parseBackup,
  type RestoreMode,
  type RestoreOutcome,
} from '../core/applications/backup.js'
import {describeFileError, directoryGivenAsFile, ValidationError} from '../core/errors.js'
import {type Clock, localTimestamp} from '../core/time.js'
import {ensurePrivateDirectory, writeFileDurably} from '../storage/durable-file.js'
import {readConfigFile, writeConfigFile} from './config.js'
import {checkConfig} from './config-schema.js'
import {withoutSecrets, withSecretsOf} from './configured-secrets.js'

/** What a backup holds, as `backup --json` and the log line say it. */
export interface BackupSummary {
  /** The file written; null when the backup went to stdout. */
  file: string | null
  created_at: string
  applications: number
  verdicts: number
  profile: boolean
  config_left_out: string[]
}

/** What a restore did. */
export interface RestoreSummary extends RestoreOutcome {
  file: string
  mode: RestoreMode | 'empty home'
  /** Whether the config file was written (the file's settings and profile). */
  config_written: boolean
  /** The secret settings the backup left out: set them again in this home if it lacks them. */
  config_left_out: string[]
}

/** What a home holds that a restore would change: its tracker's records and its config file's settings. */
interface HomeContents {
  applications: number
  verdicts: number
  settings: number
}

type Settings = Record<string, unknown>

/**
 * `jobagent backup` and `restore` (docs/BACKUP.md): the whole tracker, the job verdicts, the profile and the config
 * without its secrets, in one versioned JSON file, and back.
 */
export class TrackerBackup {
  constructor(
    private readonly store: BackupStore,
    private readonly configFile: string,
    private readonly dataDir: string,
    private readonly clock: Clock,
  ) {}

  /** Where a backup goes when no file is given: a timestamped file in the data directory. */
  defaultPath(): string {
    return join(this.dataDir, `backup-${localTimestamp(this.clock.now()).replace(/[:.]/g, '-')}.json`)
  }

  async create(): Promise<Backup> {
    const {profile, ...stored} = readConfigFile(this.configFile)
    const {settings, leftOut} = withoutSecrets(stored)
    const contents = await this.store.contents()
    const {applications, copies} = this.withCopies(contents.applications)
    return {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      created_at: localTimestamp(this.clock.now()),
      applications,
      verdicts: contents.verdicts,
      document_copies: copies,
      profile: isSettings(profile) ? profile : null,
      config: settings,
      config_left_out: leftOut,
    }
  }

  summary(backup: Backup, file: string | null): BackupSummary {
    return {
      file,
      created_at: backup.created_at,
      applications: backup.applications.length,
      verdicts: backup.verdicts.length,
      profile: backup.profile !== null,
      config_left_out: backup.config_left_out,
    }
  }

  /** Writes a backup to the file completely, fsynced, then renamed into place (durable-file). */
  async writeFile(file: string): Promise<BackupSummary> {
    const path = resolve(file)
    const backup = await this.create()
    writeFileDurably(path, backupText(backup))
    return this.summary(backup, path)
  }

  async homeContents(): Promise<HomeContents> {
    const held = await this.store.holds()
    return {...held, settings: Object.keys(readConfigFile(this.configFile)).length}
  }

  /**
   * Restores a backup file, all or nothing: every record and the config it makes are checked first, the tracker
   * is written in one transaction, and the config file is written (durably) only once that has committed. A home
   * that holds anything needs a mode.
   */
  async restoreFile(file: string, mode: RestoreMode | undefined): Promise<RestoreSummary> {
    const path = resolve(file)
    const backup = parseBackup(readBackupFile(path), path)
    const home = await this.homeContents()
    const empty = home.applications === 0 && home.verdicts === 0 && home.settings === 0
    if (!empty && mode === undefined) {
      // A choice the command line has to make, as --yes is for a purge: a usage error.
      throw new ValidationError(
        `this home holds ${home.applications} application(s), ${home.verdicts} verdict(s) and ${home.settings} setting(s); nothing was restored`,
        {hint: `say what to do with them: jobagent restore ${file} --replace (or --merge)`},
      )
    }
    const current = readConfigFile(this.configFile)
    const next = restoredSettings(backup, current, mode ?? 'replace')
    const checked = checkConfig(next)
    if (!checked.ok) {
      const problems = checked.problems.map((problem) => ({...problem, message: `config: ${problem.message}`}))
      throw new ValidationError(
        `${path} holds settings this jobagent refuses; nothing was restored: ${problems.map((p) => p.message).join('; ')}`,
        {details: problems, hint: 'fix the "config" or "profile" of the file, then restore it again'},
      )
    }
    // The copies first: each is named by its hash and checked against it, so one left behind by a failed restore
    // is a file the data directory may hold anyway.
    const applications = this.restoreCopies(backup, path)
    const outcome = await this.store.restore({applications, verdicts: backup.verdicts}, mode ?? 'replace')
    const changed = JSON.stringify(next) !== JSON.stringify(current)
    if (changed) writeConfigFile(this.configFile, next)
    return {
      ...outcome,
      file: path,
      mode: empty ? 'empty home' : (mode ?? 'replace'),
      config_written: changed,
      config_left_out: backup.config_left_out,
    }
  }

  /**
   * The applications with each kept copy named relative to the data directory (`documents/<hash>.pdf`), and those
   * copies' bytes, each once: the same backup restores into any home. A copy the data directory no longer holds
   * keeps its path and is not in the file.
   */
  private withCopies(applications: BackedUpApplication[]): {
    applications: BackedUpApplication[]
    copies: Backup['document_copies']
  } {
    const copies = new Map<string, string>()
    const copiesDir = join(this.dataDir, 'documents')
    const named = (document: ApplicationDocument): ApplicationDocument => {
      if (document.copy === null || !document.copy.startsWith(copiesDir + sep)) return document
      const copy = relative(this.dataDir, document.copy).split(sep).join('/')
      if (!COPY_NAME.test(copy) || !existsSync(document.copy)) return document
      if (!copies.has(copy)) copies.set(copy, readFileSync(document.copy).toString('base64'))
      return {...document, copy}
    }
    const withNames = applications.map((application) =>
      application.documents.some((document) => document.copy !== null)
        ? {...application, documents: application.documents.map(named)}
        : application,
    )
    const sorted = [...copies].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return {applications: withNames, copies: sorted.map(([copy, base64]) => ({copy, base64}))}
  }

  /**
   * Writes the backup's copies under this home's data directory, each checked against the hash it is named by, and
   * gives the applications with their copies' paths in this home.
   */
  private restoreCopies(backup: Backup, path: string): BackedUpApplication[] {
    const bytesOf = new Map<string, Buffer>()
    backup.document_copies.forEach(({copy, base64}, index) => {
      const bytes = Buffer.from(base64, 'base64')
      const hash = COPY_NAME.exec(copy)?.[1]
      if (createHash('sha256').update(bytes).digest('hex') !== hash) {
        throw new ValidationError(
          `${path}: document_copies[${index}] does not hold the file its name's hash says; nothing was restored`,
          {
            details: [{field: `document_copies[${index}].base64`, message: 'does not match the SHA-256 in its name'}],
            hint: 'restore a file written by jobagent backup, unchanged',
          },
        )
      }
      bytesOf.set(copy, bytes)
    })
    if (bytesOf.size > 0) ensurePrivateDirectory(join(this.dataDir, 'documents'))
    for (const [copy, bytes] of bytesOf) {
      const file = join(this.dataDir, ...copy.split('/'))
      if (!existsSync(file)) writeFileDurably(file, bytes)
    }
    return backup.applications.map((application) =>
      application.documents.some((document) => document.copy !== null && bytesOf.has(document.copy))
        ? {
            ...application,
            documents: application.documents.map((document) =>
              document.copy !== null && bytesOf.has(document.copy)
                ? {...document, copy: join(this.dataDir, ...document.copy.split('/'))}
                : document,
            ),
          }
        : application,
    )
  }
}

function isSettings(value: unknown): value is Settings {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The config file a restore leaves: with `replace`, the file's settings and profile, keeping the secret settings
 * this home's file holds (a backup has none); with `merge`, this home's settings, and the file's where it has none
 * (its profile only when this home has no profile).
 */
function restoredSettings(backup: Backup, current: Settings, mode: RestoreMode): Settings {
  const restored: Settings = {...backup.config, ...(backup.profile === null ? {} : {profile: backup.profile})}
  if (mode === 'replace') return withSecretsOf(restored, current)
  return mergeKeeping(restored, current)
}

/** `base` with every value of `kept` over it; objects are merged key by key, lists and the profile taken whole. */
function mergeKeeping(base: Settings, kept: Settings, key = ''): Settings {
  const merged: Settings = {...base}
  for (const [name, value] of Object.entries(kept)) {
    const inner = merged[name]
    merged[name] =
      isSettings(value) && isSettings(inner) && !(key === '' && name === 'profile')
        ? mergeKeeping(inner, value, name)
        : value
  }
  return merged
}

/** The backup file's text; a directory, a missing file or one over BACKUP_MAX_BYTES is refused by name. */
function readBackupFile(path: string): string {
  try {
    const stat = statSync(path)
    if (stat.isDirectory()) throw directoryGivenAsFile(path)
    if (stat.size > BACKUP_MAX_BYTES) {
      throw new ValidationError(`${path} is larger than a backup may be (${BACKUP_MAX_BYTES / 1024 / 1024} MiB)`, {
        hint: 'restore a file written by jobagent backup',
      })
    }
    return readFileSync(path, 'utf8')
  } catch (error) {
    throw describeFileError(error, path, 'read')
  }
}
