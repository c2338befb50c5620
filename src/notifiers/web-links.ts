import type {Digest, Notifier} from '../core/notifications/notifier.js'
import {isHttpUrl} from '../core/url-identity.js'

/**
 * The digest with only the jobs whose link is an http(s) URL listed; the others count in "+N more". Runs drop such
 * jobs when a board sends them, but a job stored before that (or by another writer of the database) must still
 * never reach a channel as a `javascript:` or `data:` link that a click would follow.
 */
function webLinksOnly(digest: Digest): Digest {
  if (digest.jobs.every((job) => isHttpUrl(job.url))) return digest
  const keep = digest.jobs.map((job) => isHttpUrl(job.url))
  const jobs = digest.jobs.filter((_, index) => keep[index])
  return {
    ...digest,
    jobs,
    lines: digest.lines.filter((_, index) => keep[index] ?? true),
    more: digest.more + (digest.jobs.length - jobs.length),
  }
}

/** Every channel is built behind this guard, so no channel's own rendering can link anything but http(s). */
export class WebLinksOnlyNotifier implements Notifier {
  constructor(private readonly channel: Notifier) {}

  get name(): string {
    return this.channel.name
  }

  send(digest: Digest, signal: AbortSignal): Promise<void> {
    return this.channel.send(webLinksOnly(digest), signal)
  }
}
