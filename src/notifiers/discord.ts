import {MARKDOWN_STYLE, renderDigest} from '../core/notifications/digest.js'
import type {Digest, Notifier} from '../core/notifications/notifier.js'
import type {HttpTransport} from './transport.js'

/** Discord refuses a message whose content is longer than 2,000 characters. */
const DISCORD_CONTENT_LIMIT = 2000

/** Posts the digest as one Discord message; Discord answers 204. Job titles can never ping anyone. */
export class DiscordNotifier implements Notifier {
  constructor(
    readonly name: string,
    private readonly endpoint: string,
    private readonly http: HttpTransport,
  ) {}

  async send(digest: Digest, signal: AbortSignal): Promise<void> {
    const content = renderDigest(digest, MARKDOWN_STYLE, {limit: DISCORD_CONTENT_LIMIT})
    const json = {content, allowed_mentions: {parse: []}}
    await this.http.postJson({label: this.name, url: this.endpoint, json}, signal)
  }
}
