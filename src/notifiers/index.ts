import {ConfigurationError, type ErrorDetail} from '../core/errors.js'
import type {Logger} from '../core/logger.js'
import type {Notifier} from '../core/notifications/notifier.js'
import {type NotifierSpec, parseNotifierUrl} from './channel-urls.js'
import {DiscordNotifier} from './discord.js'
import {EmailNotifier} from './email.js'
import {LogNotifier} from './log.js'
import {NtfyNotifier} from './ntfy.js'
import {SlackNotifier} from './slack.js'
import {HttpTransport} from './transport.js'
import {WebLinksOnlyNotifier} from './web-links.js'
import {WebhookNotifier} from './webhook.js'

interface NotifierDeps {
  /** The root logger; `log://` writes to its `notify.log` child. */
  logger: Logger
  /** Shared by the HTTP channels; a default transport (no proxy agent, default retries) otherwise. */
  http?: HttpTransport
  /** Connection, greeting and socket timeout of the SMTP channel (default 15 s). */
  smtpTimeoutMs?: number
}

function notifierFromSpec(spec: NotifierSpec, deps: NotifierDeps): Notifier {
  return new WebLinksOnlyNotifier(channelFromSpec(spec, deps))
}

function channelFromSpec(spec: NotifierSpec, deps: NotifierDeps): Notifier {
  const http = deps.http ?? new HttpTransport()
  switch (spec.kind) {
    case 'ntfy':
      return new NtfyNotifier(spec.name, spec.target, http)
    case 'slack':
      return new SlackNotifier(spec.name, spec.endpoint, http)
    case 'discord':
      return new DiscordNotifier(spec.name, spec.endpoint, http)
    case 'email':
      return new EmailNotifier(spec.name, spec.target, deps.smtpTimeoutMs)
    case 'webhook':
      return new WebhookNotifier(spec.name, spec.target, http)
    case 'log':
      return new LogNotifier(deps.logger)
  }
}

/** Every URL is checked before any channel is built; all the invalid ones are reported together. */
export function createNotifiers(urls: readonly string[], deps: NotifierDeps): Notifier[] {
  const specs: NotifierSpec[] = []
  const problems: ConfigurationError[] = []
  for (const url of urls) {
    try {
      specs.push(parseNotifierUrl(url))
    } catch (error) {
      if (!(error instanceof ConfigurationError)) throw error
      problems.push(error)
    }
  }
  const [first] = problems
  if (first && problems.length === 1) throw first
  if (first) {
    const details: ErrorDetail[] = problems.flatMap((problem) => problem.details)
    throw new ConfigurationError(
      `${problems.length} invalid notification URLs: ${details.map((d) => d.message).join('; ')}`,
      {
        details,
        hint: first.hint,
      },
    )
  }
  const http = deps.http ?? new HttpTransport()
  return specs.map((spec) => notifierFromSpec(spec, {...deps, http}))
}
