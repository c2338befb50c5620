import {escapeControls as shown} from '../../core/control-characters.js'
import type {DeliveryReport} from '../../core/notifications/notification-service.js'
import type {Style} from '../style.js'

/** One line per channel: "ok      ntfy://jobs (120 ms)" or "failed  <channel> (…): <reason>". */
export function renderDelivery(report: DeliveryReport, style: Style): string {
  const lines = report.channels.map((result) => {
    const status = result.ok ? style.green('ok    ') : style.red('failed')
    // The reason may quote a channel's reply, which is outside text like any other.
    const reason = result.error ? `: ${shown(result.error)}` : ''
    return `${status}  ${shown(result.channel)} ${style.dim(`(${result.duration_ms} ms)`)}${reason}`
  })
  const failed = report.channels.filter((result) => !result.ok).length
  const summary =
    failed === 0
      ? `All ${report.channels.length} channel(s) accepted the test message.`
      : `${failed} of ${report.channels.length} channel(s) failed.`
  return `${lines.join('\n')}\n${summary}`
}
