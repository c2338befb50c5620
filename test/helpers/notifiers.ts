import type {Notifier} from '../../src/core/notifications/notifier.js'
import {createNotifiers} from '../../src/notifiers/index.js'

/** The channel one notification URL names, built the way a run builds every configured channel. */
export function channelFor(url: string, deps: Parameters<typeof createNotifiers>[1]): Notifier {
  const [notifier] = createNotifiers([url], deps)
  if (!notifier) throw new Error(`no channel built for ${url}`)
  return notifier
}
