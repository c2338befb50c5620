import {HTML_RULES_VERSION, type HtmlReader, htmlToText} from '../../core/jobs/description.js'
import type {Logger} from '../../core/logger.js'
import {read, type SqliteDatabase, writeTransaction} from './database.js'
import {textHash} from './text-hash.js'

/** What a posting's HTML is remembered under: its hash together with the version of the rules that read it. */
function sourceHash(html: string): string {
  return textHash(`${HTML_RULES_VERSION}\u0000${html}`)
}

interface Pair {
  source_hash: string
  description_hash: string
}

/**
 * Remembers what the HTML of each description read as, so a run reads again only the descriptions that changed:
 * a daily run sees mostly the jobs of the day before, and reading HTML is the largest part of its work. It keeps
 * no text of its own: `description_sources` maps the hash of a description's HTML to the hash of its text, and
 * the text is the one stored with a job (`jobs.description_hash`, `job_descriptions`). HTML whose text no stored
 * job holds any more is read again; the pairs of such texts are dropped when the memo first writes.
 * Remembering is an optimisation only: a read or write that fails leaves the description read from its HTML.
 */
export class DescriptionMemo {
  private readonly lookup
  private readonly insert
  private readonly prune
  private pending: Pair[] = []
  private writing: Promise<void> | undefined
  private pruned = false

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
    private readonly logger: Logger,
    /** How HTML is read when nothing is remembered for it; tests count the reads through it. */
    private readonly readFresh: HtmlReader = htmlToText,
  ) {
    this.lookup = db.prepare(
      `SELECT job_descriptions.description FROM description_sources
         JOIN jobs ON jobs.description_hash = description_sources.description_hash
         JOIN job_descriptions ON job_descriptions.job_id = jobs.id
       WHERE description_sources.source_hash = ? LIMIT 1`,
    )
    this.insert = db.prepare(
      'INSERT OR REPLACE INTO description_sources (source_hash, description_hash) VALUES (@source_hash, @description_hash)',
    )
    this.prune = db.prepare(
      `DELETE FROM description_sources WHERE NOT EXISTS
         (SELECT 1 FROM jobs WHERE jobs.description_hash = description_sources.description_hash)`,
    )
  }

  /** The HtmlReader the boards are given. */
  readonly read: HtmlReader = (html) => {
    if (typeof html !== 'string' || html.trim() === '') return this.readFresh(html)
    const source = sourceHash(html)
    const known = this.recall(source)
    if (known !== undefined) return known
    const text = this.readFresh(html)
    if (text !== null) this.remember({source_hash: source, description_hash: textHash(text)})
    return text
  }

  /** Waits for what this memo still has to write. */
  async settle(): Promise<void> {
    while (this.writing) await this.writing
  }

  private recall(source: string): string | undefined {
    try {
      const row = read(this.db, this.file, () => this.lookup.get(source)) as {description: string} | undefined
      return row?.description
    } catch (error) {
      this.logger.debug(`descriptions: reading the remembered text failed (${(error as Error).message})`)
      return undefined
    }
  }

  /** Written with the other writes of the turn (the write queue's group commit), not one transaction each. */
  private remember(pair: Pair): void {
    this.pending.push(pair)
    if (this.writing) return
    const writing: Promise<void> = writeTransaction(this.db, this.file, () => {
      const pairs = this.pending
      this.pending = []
      this.writing = undefined
      // Once per memo, before its own pairs go in: the pairs of the texts that runs since have let go.
      if (!this.pruned) this.prune.run()
      this.pruned = true
      for (const pair of pairs) this.insert.run(pair)
    }).catch((error: unknown) => {
      if (this.writing === writing) this.writing = undefined
      this.logger.debug(`descriptions: remembering what was read failed (${(error as Error).message})`)
    })
    this.writing = writing
  }
}
