import type {JobVerdict, VerdictStore} from '../../core/jobs/job-verdicts.js'
import {read, type SqliteDatabase, writeTransaction} from './database.js'

/** A job_verdicts row as SQLite returns it: the tags as JSON text. */
type VerdictRow = Omit<JobVerdict, 'tags'> & {tags: string}

const fromRow = (row: VerdictRow): JobVerdict => ({...row, tags: JSON.parse(row.tags) as string[]})

/** The verdicts on jobs, in jobagent.db beside the jobs they are about. */
export class SqliteVerdictStore implements VerdictStore {
  private readonly statements

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
  ) {
    this.statements = {
      get: db.prepare('SELECT * FROM job_verdicts WHERE job_id = ?'),
      put: db.prepare(
        `INSERT INTO job_verdicts (job_id, verdict, reason, given_by, given_at, title, company, tags)
         VALUES (@job_id, @verdict, @reason, @given_by, @given_at, @title, @company, @tags)
         ON CONFLICT (job_id) DO UPDATE SET verdict = excluded.verdict, reason = excluded.reason,
         given_by = excluded.given_by, given_at = excluded.given_at, title = excluded.title,
         company = excluded.company, tags = excluded.tags`,
      ),
      remove: db.prepare('DELETE FROM job_verdicts WHERE job_id = ?'),
      list: db.prepare('SELECT * FROM job_verdicts ORDER BY given_at DESC, job_id DESC LIMIT ?'),
      clear: db.prepare('DELETE FROM job_verdicts'),
    }
  }

  give(verdict: JobVerdict): Promise<JobVerdict | null> {
    return writeTransaction(this.db, this.file, () => {
      const before = this.statements.get.get(verdict.job_id) as VerdictRow | undefined
      this.statements.put.run({...verdict, tags: JSON.stringify(verdict.tags)})
      return before ? fromRow(before) : null
    })
  }

  take(jobId: number): Promise<JobVerdict | null> {
    return writeTransaction(this.db, this.file, () => {
      const before = this.statements.get.get(jobId) as VerdictRow | undefined
      if (before) this.statements.remove.run(jobId)
      return before ? fromRow(before) : null
    })
  }

  async verdicts(limit = 1000): Promise<JobVerdict[]> {
    return read(this.db, this.file, () => (this.statements.list.all(limit) as VerdictRow[]).map(fromRow))
  }

  forget(): Promise<number> {
    return writeTransaction(this.db, this.file, () => this.statements.clear.run().changes)
  }
}
