import {APPLICATION_STATUSES, type ApplicationStatus, isAppliedStatus} from '../applications/application.js'
import {jobApplicationKeys} from '../url-identity.js'
import * as z from '../zod-mini.js'
import type {OtherListing} from './dedupe.js'

/**
 * The one rule that says whether a found job is already tracked and whether it is new. `jobagent run`, the job
 * lists (`jobagent jobs`, GET /jobs/last, the dashboard) and GET /jobs all judge with it, so a job the run counts
 * as applied for never shows as new elsewhere, and no front end offers to track a job twice.
 */

/** A tracked application as the judgement needs it. */
interface TrackedUrl {
  url: string
  status: ApplicationStatus
}

// The schema is built with calls marked pure: the web page bundles this module for isNewJob and so leaves the
// schema out (esbuild does not see zod's own marks through its re-exports).

/** What the tracker holds about a found job, as every listing of jobs adds it to each. */
export const jobTrackingSchema = /* @__PURE__ */ z.object({
  /** The status of the application tracked for this job, or null when none is. */
  tracked_status: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.enum(APPLICATION_STATUSES)),
  /** That application's URL as stored (it can differ from the job's by tracking parameters), or null. */
  tracked_url: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
  /** Not yet applied for: untracked, or tracked as `saved`. */
  is_new: /* @__PURE__ */ z.boolean(),
})

export type JobTracking = z.output<typeof jobTrackingSchema>

/**
 * The keys a job can be tracked under: its URL's (`urlKey`, its canonical URL where already known) and those of
 * its other listings, so an application for any listing of a role is the job's.
 */
export function jobTrackingKeys(job: {url: string; also_on: readonly OtherListing[]}, urlKey?: string): string[] {
  const others = job.also_on.flatMap((listing) => jobApplicationKeys(listing.url))
  return [...jobApplicationKeys(job.url, urlKey), ...others]
}

/**
 * Judges a job by its keys against the applications tracked under them (URL key -> application). When both keys
 * are tracked, the one applied for is the job's application (else the one as posted), so `is_new` always agrees
 * with `tracked_status`.
 */
export function trackingOfJob(keys: readonly string[], tracked: ReadonlyMap<string, TrackedUrl>): JobTracking {
  const isAppliedKey = (key: string) => {
    const application = tracked.get(key)
    return application !== undefined && isAppliedStatus(application.status)
  }
  const applied = keys.some(isAppliedKey)
  const key = (applied ? keys.find(isAppliedKey) : keys.find((candidate) => tracked.has(candidate))) ?? ''
  const application = tracked.get(key)
  return {tracked_status: application?.status ?? null, tracked_url: application?.url ?? null, is_new: !applied}
}

/**
 * Whether a job is new: still listed (a closed job has nothing left to apply for) and not yet applied for, that is
 * untracked or tracked as `saved`. The stored jobs' `is_new` is this; the web page applies it to the status it
 * holds, so a status changed there shows at once.
 */
export function isNewJob(job: {closed_at?: string | null}, trackedStatus: ApplicationStatus | null): boolean {
  return !job.closed_at && (trackedStatus === null || !isAppliedStatus(trackedStatus))
}

/**
 * Whether a job counts among the new jobs of a run: the one count the run log, the run's record, `jobagent jobs`,
 * the dashboard and GET /jobs/last give. A job not applied for counts unless the person dismissed it: a dismissed
 * job is hidden from every list and never notified, so counting it would promise a job no list shows.
 */
export function countsAsNew(job: {id: number | null}, notAppliedFor: boolean, dismissed: ReadonlySet<number>): boolean {
  return notAppliedFor && (job.id === null || !dismissed.has(job.id))
}
