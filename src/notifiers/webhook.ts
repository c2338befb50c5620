import {renderDigest, TEXT_BODY_STYLE} from '../core/notifications/digest.js'
import type {Digest, Notifier} from '../core/notifications/notifier.js'
import type {WebhookTarget} from './channel-urls.js'
import type {HttpTransport} from './transport.js'

/** Posts `{title, message, type, jobs}`: the digest as text and the listed jobs as JobResponse objects. */
export class WebhookNotifier implements Notifier {
  constructor(
    readonly name: string,
    private readonly target: WebhookTarget,
    private readonly http: HttpTransport,
  ) {}

  async send(digest: Digest, signal: AbortSignal): Promise<void> {
    const message = renderDigest(digest, TEXT_BODY_STYLE)
    const json = {title: digest.title, message, type: digest.type, jobs: digest.jobs}
    const headers: Record<string, string> = this.target.authorization ? {authorization: this.target.authorization} : {}
    await this.http.postJson({label: this.name, url: this.target.endpoint, headers, json}, signal)
  }
}
