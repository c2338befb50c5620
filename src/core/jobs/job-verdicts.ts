import type {OccupationIndex} from '../matching/occupations.js'
import {VERDICTS, VerdictModel} from '../matching/verdicts.js'
import * as z from '../zod-mini.js'

/** A person's verdict on a stored job, with the job's title and tags as they were, which the verdicts teach. */
export const jobVerdictSchema = z.object({
  job_id: z.int(),
  verdict: z.enum(VERDICTS),
  /** Why, in the person's words (`too senior`); null when not said. */
  reason: z.nullable(z.string()),
  /** `user`: given with --like/--dismiss, a key or a button; `tracked`: the job was tracked, which counts as a like. */
  given_by: z.enum(['user', 'tracked']),
  /** When, as `applied_date` is written (local, no zone). */
  given_at: z.string(),
  title: z.string(),
  company: z.string(),
  tags: z.array(z.string()),
})

export type JobVerdict = z.output<typeof jobVerdictSchema>

/** The verdicts kept in jobagent.db: one per job, the latest; a dismissed job stays dismissed through its reposts. */
export interface VerdictStore {
  /** Keeps `verdict` as the job's, replacing an earlier one, which it returns. */
  give(verdict: JobVerdict): Promise<JobVerdict | null>
  /** Removes the job's verdict and returns it; null when it had none. */
  take(jobId: number): Promise<JobVerdict | null>
  /** Every verdict, most recent first, at most `limit`. */
  verdicts(limit?: number): Promise<JobVerdict[]>
  /** Removes every verdict; returns how many there were. */
  forget(): Promise<number>
}

/** How many verdicts the verdicts teach: the most recent. */
export const LEARNED_VERDICTS = 500

/** What the person's verdicts teach: the model that ranks with them, the jobs dismissed, each job's verdict. */
export interface Learned {
  model: VerdictModel | null
  dismissed: ReadonlySet<number>
  verdicts: ReadonlyMap<number, JobVerdict>
}

/**
 * The verdicts read afresh and what they teach; the run and every listing learn from the same ones, so a job ranks
 * alike in the digest and in `jobagent jobs`. Nothing without a store.
 */
export async function learnFrom(
  store: Pick<VerdictStore, 'verdicts'> | null | undefined,
  occupations?: OccupationIndex,
): Promise<Learned> {
  const verdicts = store ? await store.verdicts(LEARNED_VERDICTS) : []
  return {
    model: verdicts.length > 0 ? new VerdictModel(verdicts, occupations) : null,
    dismissed: new Set(verdicts.filter((given) => given.verdict === 'dismiss').map((given) => given.job_id)),
    verdicts: new Map(verdicts.map((given) => [given.job_id, given])),
  }
}
