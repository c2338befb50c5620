import {parseNotifierUrl} from '../notifiers/channel-urls.js'

/**
 * Refuses invalid channel URLs when they are configured (`config set notify.urls ...` or `config set notify ...`),
 * not at send time. Values of other shapes are left to the config schema.
 */
export function checkNotifySetting(key: string, value: unknown): void {
  const urls =
    key === 'notify.urls'
      ? value
      : key === 'notify' && typeof value === 'object' && value
        ? (value as {urls?: unknown}).urls
        : undefined
  if (!Array.isArray(urls)) return
  for (const url of urls) if (typeof url === 'string') parseNotifierUrl(url)
}
