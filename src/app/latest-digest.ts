import {buildDigest, renderDigest, TEXT_STYLE} from '../core/notifications/digest.js'
import {notifyFloor} from '../core/notifications/notify-floor.js'
import type {AppContext} from './context.js'

/**
 * The digest a run would send now, built from what is stored: every new job of the last run (not dismissed, scored
 * notify.min_score or more with a profile), listed up to notify.max_items, then the follow-ups due and the
 * interviews of the next 48 hours. Unlike a run it names jobs notified before too, and it marks nothing as sent.
 */
export async function latestDigest(context: AppContext): Promise<string> {
  const {max_items} = context.config.notify
  const min_score = notifyFloor(context.config.notify)
  const catalog = await context.openJobCatalog()
  const [{jobs}, due, interviews] = await Promise.all([
    catalog.lastRun({newOnly: true, ...(catalog.scored ? {minScore: min_score} : {})}),
    context.followUps.due(),
    context.followUps.interviews(),
  ])
  const followUps = {named: due.slice(0, max_items), total: due.length, interviews}
  return renderDigest(buildDigest(jobs, {maxItems: max_items, followUps}), TEXT_STYLE)
}
