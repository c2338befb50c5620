import type {Verdict} from '../matching/feedback.js'

/** A person's verdict on a stored job, with the job's title and tags as they were, which feedback learns from. */
export interface JobVerdict {
  job_id: number
  verdict: Verdict
  /** Why, in the person's words (`too senior`); null when not said. */
  reason: string | null
  /** `user`: given with --like/--dismiss, a key or a button; `tracked`: the job was tracked, which counts as a like. */
  given_by: 'user' | 'tracked'
  /** When, as `applied_date` is written (local, no zone). */
  given_at: string
  title: string
  company: string
  tags: string[]
}

/** The verdicts kept in jobagent.db: one per job, the latest; a dismissed job stays dismissed through its reposts. */
export interface FeedbackStore {
  /** Keeps `verdict` as the job's, replacing an earlier one, which it returns. */
  give(verdict: JobVerdict): Promise<JobVerdict | null>
  /** Removes the job's verdict and returns it; null when it had none. */
  take(jobId: number): Promise<JobVerdict | null>
  /** Every verdict, most recent first, at most `limit`. */
  verdicts(limit?: number): Promise<JobVerdict[]>
  /** Removes every verdict; returns how many there were. */
  forget(): Promise<number>
}
