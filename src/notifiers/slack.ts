import {type DigestStyle, jobDetails, moreLine, renderDigest} from '../core/notifications/digest.js'
import type {Digest, Notifier} from '../core/notifications/notifier.js'
import type {HttpTransport} from './transport.js'

/** Slack truncates a message's text after 40,000 characters; we drop whole lines before that. */
const SLACK_TEXT_LIMIT = 40_000

/** Slack's mrkdwn treats only these three as control characters. */
const mrkdwn = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** A link target that cannot end the `<url|label>` around it. */
const target = (url: string) => url.replace(/[|<>\s]/g, (char) => encodeURIComponent(char))

/** mrkdwn: the title in bold, one bullet per job with the job title linking to the posting. */
const SLACK_STYLE: DigestStyle = {
  heading: (title) => `*${mrkdwn(title)}*`,
  item: (line, job) => (job ? `• <${target(job.url)}|${mrkdwn(job.title)}>, ${mrkdwn(jobDetails(job))}` : mrkdwn(line)),
  more: moreLine,
}

/** Posts the digest to a Slack incoming webhook; Slack answers 200 "ok". */
export class SlackNotifier implements Notifier {
  constructor(
    readonly name: string,
    private readonly endpoint: string,
    private readonly http: HttpTransport,
  ) {}

  async send(digest: Digest, signal: AbortSignal): Promise<void> {
    const text = renderDigest(digest, SLACK_STYLE, {limit: SLACK_TEXT_LIMIT})
    const json = {text, unfurl_links: false, unfurl_media: false}
    await this.http.postJson({label: this.name, url: this.endpoint, json}, signal)
  }
}
