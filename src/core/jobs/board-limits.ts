import {isHttpUrl} from '../url-identity.js'
import type {JobResponse} from './job.js'

/**
 * The longest text a job keeps, in characters (UTF-16 code units). A board is outside jobagent's control: a 5 MB
 * title would be stored, listed, sent and served again on every read. Longer text is cut, never refused.
 */
export const JOB_TEXT_LIMITS = {title: 500, company: 200, location: 500} as const

/** A link longer than this is no posting's address; it cannot be cut without breaking it, so the job is dropped. */
const JOB_URL_LIMIT = 4096

/**
 * `text` cut to `limit` code units without leaving half a surrogate pair at the end. The cut is a string of its
 * own: V8 keeps a slice of a long string as a view into the whole, so a description cut from a text of megabytes
 * would keep every megabyte alive for as long as its job.
 */
export function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text
  const cut = text.slice(0, limit)
  const last = cut.charCodeAt(cut.length - 1)
  return ownCopy(last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut)
}

/** A copy of `text` in fresh memory (a JSON string is parsed into a new one), not a view into a larger string. */
function ownCopy(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string
}

interface ScreenedJobs {
  jobs: JobResponse[]
  /** One line per kind of change, each naming the board and counting the jobs: for a WARNING line. */
  warnings: string[]
}

const jobsWord = (count: number) => `${count} ${count === 1 ? 'job' : 'jobs'}`

/**
 * What a board sent, made safe to store and pass on: a job whose link is not an http(s) URL (`javascript:`,
 * `data:`, `ftp:`) or is longer than JOB_URL_LIMIT is dropped, since every front end and channel would offer it
 * as a link; text longer than JOB_TEXT_LIMITS is cut. The counts say what happened, per board.
 */
export function screenBoardJobs(board: string, jobs: readonly JobResponse[]): ScreenedJobs {
  const kept: JobResponse[] = []
  let notWeb = 0
  let tooLong = 0
  let cut = 0
  for (const job of jobs) {
    if (job.url.length > JOB_URL_LIMIT) {
      tooLong++
      continue
    }
    if (!isHttpUrl(job.url)) {
      notWeb++
      continue
    }
    const title = cutText(job.title, JOB_TEXT_LIMITS.title)
    const company = cutText(job.company, JOB_TEXT_LIMITS.company)
    const location = cutText(job.location, JOB_TEXT_LIMITS.location)
    if (title === job.title && company === job.company && location === job.location) {
      kept.push(job)
    } else {
      cut++
      kept.push({...job, title, company, location})
    }
  }
  const warnings: string[] = []
  if (notWeb > 0) warnings.push(`${board}: ${jobsWord(notWeb)} dropped: link is not http(s)`)
  if (tooLong > 0) warnings.push(`${board}: ${jobsWord(tooLong)} dropped: link longer than ${JOB_URL_LIMIT} characters`)
  if (cut > 0) {
    const limits = Object.entries(JOB_TEXT_LIMITS)
      .map(([field, limit]) => `${field} ${limit}`)
      .join(', ')
    warnings.push(`${board}: ${jobsWord(cut)} cut to the longest text kept (${limits} characters)`)
  }
  return {jobs: kept, warnings}
}
