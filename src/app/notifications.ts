import {EnvHttpProxyAgent} from 'undici'
import type {Logger} from '../core/logger.js'
import {NotificationService} from '../core/notifications/notification-service.js'
import type {SecretMask} from '../core/secrets.js'
import {createNotifiers} from '../notifiers/index.js'
import {type HttpPolicy, HttpTransport} from '../notifiers/transport.js'
import {USER_AGENT} from './version.js'

interface OpenedNotifications {
  service: NotificationService
  /** Releases the HTTP connections kept alive for the channels. */
  close(): Promise<void>
}

/**
 * The notification service for these channel URLs: the HTTP channels share one transport whose agent honours
 * HTTP_PROXY, HTTPS_PROXY and NO_PROXY. Invalid URLs throw a ConfigurationError before anything is sent.
 */
export function openNotifications(
  urls: readonly string[],
  options: {logger: Logger; policy?: Partial<HttpPolicy>; smtpTimeoutMs?: number; secrets?: SecretMask},
): OpenedNotifications {
  const dispatcher = new EnvHttpProxyAgent()
  const http = new HttpTransport({
    dispatcher,
    userAgent: USER_AGENT,
    logger: options.logger.child('notify'),
    ...(options.policy ? {policy: options.policy} : {}),
    ...(options.secrets ? {secrets: options.secrets} : {}),
  })
  const notifiers = createNotifiers(urls, {
    logger: options.logger,
    http,
    ...(options.smtpTimeoutMs ? {smtpTimeoutMs: options.smtpTimeoutMs} : {}),
  })
  return {service: new NotificationService(notifiers, options.logger), close: () => dispatcher.close()}
}
