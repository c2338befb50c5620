import {localTimestamp} from '../time.js'
import {canonicalJobUrl} from '../url-identity.js'
import {ALSO_ON_LIMIT, type FoundJob, type OtherListing, otherListing} from './dedupe.js'
import type {BoardCount, JobLifecycle, KnownJob, StoredJob} from './job-store.js'
import {jobTrackingKeys} from './job-tracking.js'

/**
 * The rules of a job's life between runs (docs/LIFECYCLE.md): which stored job a found one is, when it is reposted,
 * closed and reopened, and which tracked applications learn that its posting closed. Pure: run-changes.ts applies
 * them to what the job store reads, and the store writes the change set they make in the run's transaction.
 */

/** A role seen again under a new URL within this many days is the same job reposted; later, it is a new job. */
const REPOST_WINDOW_DAYS = 90
const DAY_MS = 86_400_000

/** The stored job a found one is, and whether only its role matched (a new URL: a repost). */
interface Match<K extends KnownJob = KnownJob> {
  known: K
  byRole: boolean
}

/** How the rules look stored jobs up. */
interface KnownJobLookup<K extends KnownJob> {
  /** The stored job listed under this canonical URL (any of its listings). */
  byUrlKey(urlKey: string): K | undefined
  /** The stored job of this role (jobIdentityKey) seen most recently. */
  latestByRole(identityKey: string): K | undefined
}

/** Whether a role last seen at `lastSeen` and found again at `seenAt` is still the same job (the repost window). */
export function withinRepostWindow(lastSeen: string, seenAt: string): boolean {
  return lastSeen >= localTimestamp(new Date(new Date(seenAt).getTime() - REPOST_WINDOW_DAYS * DAY_MS))
}

/**
 * The stored job each found one is (null: a new job): the one listed under one of its canonical URLs, the record's
 * own first, else the one of its role seen within the repost window. A stored job is matched once per run.
 */
export function matchFoundJobs<K extends KnownJob>(
  jobs: readonly FoundJob[],
  lookup: KnownJobLookup<K>,
  seenAt: string,
): (Match<K> | null)[] {
  const taken = new Set<number>()
  return jobs.map((found) => {
    let match: Match<K> | null = null
    for (const key of found.urlKeys) {
      const known = lookup.byUrlKey(key)
      if (known && !taken.has(known.id)) {
        match = {known, byRole: false}
        break
      }
    }
    if (!match) {
      const known = lookup.latestByRole(found.identityKey)
      if (known && !taken.has(known.id) && withinRepostWindow(known.last_seen, seenAt)) match = {known, byRole: true}
    }
    if (match) taken.add(match.known.id)
    return match
  })
}

/** A job found for the first time. */
export function firstSeen(found: FoundJob, seenAt: string): Omit<StoredJob, 'id'> {
  return {
    ...found.job,
    first_seen: seenAt,
    last_seen: seenAt,
    notified_at: null,
    closed_at: null,
    reopened: 0,
    reposted: 0,
    also_on: found.also_on,
  }
}

/**
 * A found job seen again: it keeps its id, first listing, notification and a posted date the board dropped; it
 * is open again, counts a return after closing as reopened and reposted, a new URL of the role as reposted, and
 * keeps its other listings: this run's, the URL it had before a repost, and the earlier ones.
 */
export function seenAgain(found: FoundJob, {known, byRole}: Match, seenAt: string): StoredJob {
  const reappeared = known.closed_at !== null
  const previous = byRole ? [otherListing(known)] : []
  return {
    ...found.job,
    posted_date: found.job.posted_date ?? known.posted_date,
    id: known.id,
    first_seen: known.first_seen,
    last_seen: seenAt,
    notified_at: known.notified_at,
    ...(reappeared ? reopen(known) : {closed_at: null, reopened: known.reopened, reposted: known.reposted}),
    ...(byRole && !reappeared ? {reposted: known.reposted + 1} : {}),
    also_on: otherListings(found, [...found.also_on, ...previous, ...known.also_on]),
  }
}

/** What seeing a stored job again changed in its life: whether it came back after closing, and was reposted. */
export function changeOf(known: Pick<JobLifecycle, 'closed_at' | 'reposted'>, job: Pick<JobLifecycle, 'reposted'>) {
  return {reopened: known.closed_at !== null, reposted: job.reposted > known.reposted}
}

/** Listings other than the job's own URLs, each once, newest first, at most ALSO_ON_LIMIT. */
function otherListings(found: FoundJob, listings: readonly OtherListing[]): OtherListing[] {
  if (listings.length === found.also_on.length) return found.also_on
  const seen = new Set([found.urlKey])
  const kept: OtherListing[] = []
  for (const listing of listings) {
    const key = canonicalJobUrl(listing.url)
    if (seen.has(key)) continue
    seen.add(key)
    kept.push(listing)
    if (kept.length === ALSO_ON_LIMIT) break
  }
  return kept
}

/** A closed job listed again: open, one more return after closing, and one more repost. */
export function reopen(
  job: Pick<JobLifecycle, 'reopened' | 'reposted'>,
): Pick<JobLifecycle, 'closed_at' | 'reopened' | 'reposted'> {
  return {closed_at: null, reopened: job.reopened + 1, reposted: job.reposted + 1}
}

/**
 * The counts one board's answer changes, for a board that can close jobs (it answered, with jobs, nothing looked
 * wrong): each job it listed (`listed`) counts again from 0 under the criteria it was asked with now; each other
 * job it counted under the same criteria misses one more run; a job counted under other criteria is left as it is.
 * Only the counts that change are returned.
 */
export function countBoardMisses(
  counts: readonly BoardCount[],
  asked: {criteria: string; listed: ReadonlySet<number>},
): BoardCount[] {
  const changed: BoardCount[] = []
  const counted = new Set<number>()
  for (const count of counts) {
    counted.add(count.jobId)
    if (asked.listed.has(count.jobId)) {
      if (count.misses !== 0 || count.criteria !== asked.criteria) {
        changed.push({jobId: count.jobId, criteria: asked.criteria, misses: 0})
      }
    } else if (count.criteria === asked.criteria) {
      changed.push({...count, misses: count.misses + 1})
    }
  }
  for (const jobId of asked.listed) {
    if (!counted.has(jobId)) changed.push({jobId, criteria: asked.criteria, misses: 0})
  }
  return changed
}

/**
 * The open jobs to close: those every board that counts them has missed `closedAfterRuns` runs in a row or more
 * (`run.closed_after_runs`). `counts` are every board's counts of the open jobs.
 */
export function jobsToClose(counts: Iterable<Pick<BoardCount, 'jobId' | 'misses'>>, closedAfterRuns: number): number[] {
  const fewest = new Map<number, number>()
  for (const {jobId, misses} of counts) fewest.set(jobId, Math.min(misses, fewest.get(jobId) ?? misses))
  return [...fewest].filter(([, misses]) => misses >= closedAfterRuns).map(([jobId]) => jobId)
}

/**
 * The URL keys of the tracked applications a job's closing or reopening concerns: those under its URL or one of
 * its other listings. Their posting is marked closed when the job closes and open again when it reopens.
 */
export function postingKeys(
  jobs: readonly {url: string; url_key?: string; also_on: readonly OtherListing[]}[],
): string[] {
  return jobs.flatMap((job) => jobTrackingKeys(job, job.url_key))
}
