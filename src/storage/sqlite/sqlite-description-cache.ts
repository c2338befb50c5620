import {HTML_RULES_VERSION, type HtmlToText, htmlToText} from '../../core/jobs/description.js'
import type {Logger} from '../../core/logger.js'
import {textHash} from '../../core/text-hash.js'
import {read, type SqliteDatabase} from './database.js'

/** What a posting's HTML is cached under: its hash together with the version of the rules that read it. */
function sourceHash(html: string): string {
  return textHash(`${HTML_RULES_VERSION}\u0000`, html)
}

/** Pairs waiting for a run to store their texts; beyond this, the oldest go (their HTML is read again next time). */
const MAX_PENDING = 50_000

/**
 * Caches what the HTML of each description read as, so a run reads again only the descriptions that changed:
 * a daily run sees mostly the jobs of the day before, and reading HTML is the largest part of its work. It keeps
 * no text of its own: `description_sources` maps the hash of a description's HTML to the hash of its text, and
 * the text is in `descriptions`, kept while a stored job points at it. HTML whose text is gone from there is read
 * again; the pairs of such texts are dropped when the cache first writes.
 * The pairs of fresh reads are written by `writePending`, inside the transaction that stores a run's jobs, so a
 * search that stores nothing (a dry run, GET /jobs) leaves nothing behind either.
 * Caching is an optimisation only: a read or write that fails leaves the description read from its HTML.
 */
export class SqliteDescriptionCache {
  private readonly lookup
  private readonly insert
  private readonly prune
  /** source hash -> description hash of the fresh reads not written yet, oldest first. */
  private pending = new Map<string, string>()
  private pruned = false

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
    private readonly logger: Logger,
    /** How HTML is converted when nothing is cached for it; tests count the conversions through it. */
    private readonly convert: HtmlToText = htmlToText,
  ) {
    this.lookup = db.prepare(
      `SELECT descriptions.description FROM description_sources
         JOIN descriptions ON descriptions.hash = description_sources.description_hash
       WHERE description_sources.source_hash = ?`,
    )
    this.insert = db.prepare('INSERT OR REPLACE INTO description_sources (source_hash, description_hash) VALUES (?, ?)')
    this.prune = db.prepare(
      `DELETE FROM description_sources WHERE NOT EXISTS
         (SELECT 1 FROM descriptions WHERE descriptions.hash = description_sources.description_hash)`,
    )
  }

  /** The HtmlToText the boards are given. */
  readonly toText: HtmlToText = (html) => {
    if (typeof html !== 'string' || html.trim() === '') return this.convert(html)
    const source = sourceHash(html)
    const known = this.cached(source)
    if (known !== undefined) return known
    const text = this.convert(html)
    if (text !== null) this.addPending(source, textHash(text))
    return text
  }

  /**
   * Writes the pairs of the reads since the last call. It runs inside the caller's write transaction (a run storing
   * its jobs); a failing statement is logged and leaves that transaction going, unless SQLite ended the transaction.
   */
  readonly writePending = (): void => {
    const pairs = this.pending
    this.pending = new Map()
    const inTransaction = this.db.inTransaction
    try {
      // Once per cache, before its own pairs go in: the pairs of the texts that runs since have let go.
      if (!this.pruned) this.prune.run()
      this.pruned = true
      for (const [source, description] of pairs) this.insert.run(source, description)
    } catch (error) {
      // A full disk may have rolled back the caller's whole transaction: its next statements would run outside
      // one, so the failure is the caller's to end.
      if (inTransaction && !this.db.inTransaction) throw error
      this.logger.debug(`descriptions: saving the reading failed (${(error as Error).message})`)
    }
  }

  private cached(source: string): string | undefined {
    try {
      const row = read(this.db, this.file, () => this.lookup.get(source)) as {description: string} | undefined
      return row?.description
    } catch (error) {
      this.logger.debug(`descriptions: reading the saved reading failed (${(error as Error).message})`)
      return undefined
    }
  }

  private addPending(source: string, description: string): void {
    this.pending.delete(source)
    this.pending.set(source, description)
    if (this.pending.size > MAX_PENDING) {
      const oldest = this.pending.keys().next().value
      if (oldest !== undefined) this.pending.delete(oldest)
    }
  }
}
