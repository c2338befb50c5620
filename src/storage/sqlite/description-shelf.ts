import type {DescriptionShelf, ParkedDescription} from '../../core/jobs/description-shelf.js'
import {read, type SqliteDatabase, writeTransaction} from './database.js'
import {textHash} from './text-hash.js'

/**
 * The DescriptionShelf of jobagent.db: its `descriptions` table, where the jobs a run stores find their texts.
 * Texts go in by content, each once; the ones no job points at after a run are removed as that run is stored
 * (SqliteJobStore.saveRun), so a run that fails before storing leaves its texts only until the next one.
 */
export class SqliteDescriptionShelf implements DescriptionShelf {
  private readonly has
  private readonly put

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
  ) {
    this.has = db.prepare('SELECT 1 FROM descriptions WHERE hash = ?').pluck()
    this.put = db.prepare('INSERT OR IGNORE INTO descriptions (hash, description) VALUES (?, ?)')
  }

  async park(texts: readonly string[]): Promise<ParkedDescription[]> {
    const parked = texts.map((text) => ({hash: textHash(text), length: text.length}))
    // A board seen before mostly brings texts the table has: those are only looked up, and a board whose texts
    // are all there costs no write.
    const missing = read(this.db, this.file, () =>
      parked.flatMap((spot, index) => (this.has.get(spot.hash) ? [] : [index])),
    )
    if (missing.length > 0) {
      await writeTransaction(this.db, this.file, () => {
        for (const index of missing) this.put.run(parked[index]?.hash, texts[index])
      })
    }
    return parked
  }
}
