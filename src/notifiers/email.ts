import nodemailer from 'nodemailer'
import {HTML_STYLE, renderDigest, TEXT_STYLE} from '../core/notifications/digest.js'
import type {Digest, Notifier} from '../core/notifications/notifier.js'
import type {EmailTarget} from './channel-urls.js'

const isLoopback = (host: string) => host === 'localhost' || host.startsWith('127.') || host === '::1'

/** Sends the digest as one email with a plain-text and an HTML part, through nodemailer. */
export class EmailNotifier implements Notifier {
  constructor(
    readonly name: string,
    private readonly target: EmailTarget,
    private readonly timeoutMs = 15_000,
  ) {}

  async send(digest: Digest, signal: AbortSignal): Promise<void> {
    const {host, port, secure, user, password} = this.target
    const transport = nodemailer.createTransport({
      host,
      port,
      secure,
      // A password never crosses the network in clear: without implicit TLS, STARTTLS becomes mandatory
      // (a relay on this machine excepted).
      requireTLS: Boolean(password) && !secure && !isLoopback(host),
      ...(user && password ? {auth: {user, pass: password}} : {}),
      connectionTimeout: this.timeoutMs,
      greetingTimeout: this.timeoutMs,
      socketTimeout: this.timeoutMs,
    })
    const html = `<!doctype html>\n<html><body>\n${renderDigest(digest, HTML_STYLE)}\n</body></html>\n`
    const sending = transport.sendMail({
      from: this.target.from,
      to: this.target.to,
      subject: digest.title,
      text: `${renderDigest(digest, TEXT_STYLE)}\n`,
      html,
    })
    // nodemailer takes no AbortSignal: a cancelled run stops waiting and closes the connection.
    let onAbort = () => {}
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new Error('cancelled'))
      if (signal.aborted) onAbort()
      else signal.addEventListener('abort', onAbort, {once: true})
    })
    sending.catch(() => {})
    aborted.catch(() => {})
    try {
      await Promise.race([sending, aborted])
    } catch (error) {
      throw describeSmtpError(error, this.timeoutMs)
    } finally {
      signal.removeEventListener('abort', onAbort)
      transport.close()
    }
  }
}

/** nodemailer reports any silence (no greeting, no reply to a command) as a bare "Timeout": say what and how long. */
function describeSmtpError(error: unknown, timeoutMs: number): unknown {
  if ((error as {code?: unknown} | null)?.code !== 'ETIMEDOUT') return error
  return new Error(`no answer from the SMTP server within ${timeoutMs} ms`, {cause: error})
}
