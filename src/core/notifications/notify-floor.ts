/**
 * The score a new job needs, with a profile, to be notified when `notify.min_score` is not set. Scored on the
 * labelled evaluation set (test/fixtures/relevance: 20 people x 327 jobs), 15 keeps 95.1% of the strong matches
 * (as 5 and 10 do) and 59.3% of the partial ones, and lets through 3.9% of the jobs graded not relevant (13.6% at 5,
 * 8.9% at 10); above it strong matches start to be lost (87.8% kept at 20). docs/CONFIGURATION.md has the table.
 */
export const DEFAULT_NOTIFY_FLOOR = 15

/**
 * The notification floor in force: `notify.min_score` when the config sets it (0 explicitly: no floor), else
 * DEFAULT_NOTIFY_FLOOR. Only a run with a profile scores jobs, so only then does a floor leave any out.
 */
export function notifyFloor(notify: {min_score?: number | undefined}): number {
  return notify.min_score ?? DEFAULT_NOTIFY_FLOOR
}
