import type {JobResponse} from '../jobs/job.js'

/**
 * A job as channels carry it: every JobResponse field but the description, which would make each message (and the
 * webhook's JSON) up to 20,000 characters a job longer; the API and `jobagent jobs <id>` have it.
 */
export type NotifiedJob = Omit<JobResponse, 'description'> & {
  /** With a profile: the job's score and the reasons for it. */
  score?: number | null
  reasons?: string[]
}

/** One message about new jobs, rendered by each channel within its own limits. */
export interface Digest {
  /** e.g. "7 new jobs". */
  title: string
  /** The jobs to list, at most notify.max_items. */
  jobs: NotifiedJob[]
  /** Lines "title, company (location), source, link", one per listed job. */
  lines: string[]
  /** How many new jobs were left out of `jobs` ("+N more"). */
  more: number
  /** All new jobs, for channels that carry structured data (the JSON webhook). */
  total: number
  /** `new_jobs` for a run digest, `test` for `jobagent notify test`. */
  type: 'new_jobs' | 'test'
  /** Lines naming the applications due for a follow-up ("Follow up: title at company, 9 days, url"), after the jobs. */
  followUps: string[]
}

/** The port every notification channel implements. `send` throws when the channel did not accept the digest. */
export interface Notifier {
  /** The channel URL with its secrets masked: safe for logs. */
  readonly name: string
  send(digest: Digest, signal: AbortSignal): Promise<void>
}
