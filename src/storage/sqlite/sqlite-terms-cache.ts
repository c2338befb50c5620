import type {TermsCache} from '../../core/jobs/description-store.js'
import {textHash} from '../../core/text-hash.js'
import {read, type SqliteDatabase, writeTransaction} from './database.js'

/** The terms descriptions hold for the profile, in jobagent.db beside the texts (`description_terms`). */
export class SqliteTermsCache implements TermsCache {
  private readonly statements

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
  ) {
    this.statements = {
      find: db.prepare(
        `SELECT description_hash, terms FROM description_terms
         WHERE analyser = ? AND description_hash IN (SELECT value FROM json_each(?))`,
      ),
      dropOthers: db.prepare('DELETE FROM description_terms WHERE analyser <> ?'),
      keep: db.prepare('INSERT OR REPLACE INTO description_terms (analyser, description_hash, terms) VALUES (?, ?, ?)'),
    }
  }

  async find(key: string, hashes: readonly string[]): Promise<Map<string, string>> {
    const rows = read(this.db, this.file, () =>
      this.statements.find.raw().all(textHash(key), JSON.stringify(hashes)),
    ) as [string, string][]
    return new Map(rows)
  }

  save(key: string, entries: readonly (readonly [string, string])[]): Promise<void> {
    const analyser = textHash(key)
    return writeTransaction(this.db, this.file, () => {
      // A profile changed since: the terms of its analyser are of no use any more.
      this.statements.dropOthers.run(analyser)
      for (const [hash, terms] of entries) this.statements.keep.run(analyser, hash, terms)
    })
  }
}
