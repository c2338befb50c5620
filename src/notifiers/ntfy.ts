import {renderDigest, TEXT_BODY_STYLE, utf8Bytes} from '../core/notifications/digest.js'
import type {Digest, Notifier} from '../core/notifications/notifier.js'
import type {NtfyTarget} from './channel-urls.js'
import type {HttpTransport} from './transport.js'

/** ntfy shows messages up to 4,096 bytes; a longer one would arrive as an attachment. */
const NTFY_MESSAGE_BYTES = 4096

/** HTTP headers are Latin-1: anything else goes as an RFC 2047 encoded word, which ntfy decodes. */
function headerText(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text).toString('base64')}?=`
}

function clickTarget(digest: Digest): string | undefined {
  const link = digest.jobs[0]?.url
  if (!link) return undefined
  try {
    return new URL(link).href
  } catch {
    return undefined
  }
}

/** Publishes the digest as one ntfy message: title and tags as headers, a click opening the first job. */
export class NtfyNotifier implements Notifier {
  constructor(
    readonly name: string,
    private readonly target: NtfyTarget,
    private readonly http: HttpTransport,
  ) {}

  async send(digest: Digest, signal: AbortSignal): Promise<void> {
    const click = clickTarget(digest)
    const headers: Record<string, string> = {
      'content-type': 'text/plain; charset=utf-8',
      title: headerText(digest.title),
      tags: 'briefcase',
      ...(click ? {click} : {}),
      ...(this.target.authorization ? {authorization: this.target.authorization} : {}),
    }
    const body = renderDigest(digest, TEXT_BODY_STYLE, {limit: NTFY_MESSAGE_BYTES, measure: utf8Bytes})
    await this.http.post({label: this.name, url: this.target.endpoint, headers, body}, signal)
  }
}
