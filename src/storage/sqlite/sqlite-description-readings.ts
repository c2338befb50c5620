import type {DescriptionReadings} from '../../core/jobs/description-store.js'
import {textHash} from '../../core/text-hash.js'
import {read, type SqliteDatabase, writeTransaction} from './database.js'

/** What descriptions said for the profile, in jobagent.db beside the texts (`description_readings`). */
export class SqliteDescriptionReadings implements DescriptionReadings {
  private readonly statements

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
  ) {
    this.statements = {
      find: db.prepare(
        `SELECT description_hash, reading FROM description_readings
         WHERE reader = ? AND description_hash IN (SELECT value FROM json_each(?))`,
      ),
      dropOthers: db.prepare('DELETE FROM description_readings WHERE reader <> ?'),
      keep: db.prepare(
        'INSERT OR REPLACE INTO description_readings (reader, description_hash, reading) VALUES (?, ?, ?)',
      ),
    }
  }

  async find(key: string, hashes: readonly string[]): Promise<Map<string, string>> {
    const rows = read(this.db, this.file, () =>
      this.statements.find.raw().all(textHash(key), JSON.stringify(hashes)),
    ) as [string, string][]
    return new Map(rows)
  }

  save(key: string, readings: readonly (readonly [string, string])[]): Promise<void> {
    const reader = textHash(key)
    return writeTransaction(this.db, this.file, () => {
      // A profile changed since: its readings are of no use any more.
      this.statements.dropOthers.run(reader)
      for (const [hash, reading] of readings) this.statements.keep.run(reader, hash, reading)
    })
  }
}
