import {BaseCommand} from '../../src/cli/base-command.js'
import {EXIT_FAILURE} from '../../src/cli/exit-codes.js'
import {Args} from '../../src/cli/oclif.js'
import {renderDelivery} from '../../src/cli/render/notifications.js'
import {ConfigurationError} from '../../src/core/errors.js'
import {buildTestDigest} from '../../src/core/notifications/digest.js'

export default class NotifyTest extends BaseCommand {
  static summary = 'Send a test message to each notification channel and report the result'
  static description =
    'Without arguments, tests the configured channels (notify.urls or JOBAGENT_NOTIFY_URLS); with ' +
    'URLs, tests those instead. Channel URLs are printed with their secrets masked. Exit status: 0 every channel ' +
    'accepted the message, 1 at least one failed, 2 an invalid URL or no channel configured.'
  static examples = [
    '<%= config.bin %> notify test',
    '<%= config.bin %> notify test ntfy://my-job-alerts',
    `<%= config.bin %> notify test log:// 'mailto://me:secret@smtp.example.org?to=me@example.org' --json`,
  ]
  static enableJsonFlag = true
  static strict = false
  static args = {url: Args.string({description: 'Channel URL(s) to test instead of the configured ones.'})}

  async run() {
    const {argv} = await this.parse(NotifyTest)
    const urls = argv as string[]
    const context = this.openContext(urls.length > 0 ? {overrides: {notify: {urls}}} : {})
    if (context.config.notify.urls.length === 0) {
      throw new ConfigurationError('no notification channel is configured', {
        hint: `add one with: jobagent config set notify.urls '["ntfy://my-job-alerts"]' (or set JOBAGENT_NOTIFY_URLS), or try: jobagent notify test log://`,
      })
    }
    const report = await (await context.openNotifications()).deliver(buildTestDigest(), new AbortController().signal)
    if (!this.jsonEnabled()) this.log(renderDelivery(report, this.style))
    // Not this.exit(): that would print an EEXIT error after the report under --json.
    if (report.channels.some((result) => !result.ok)) this.setExitCode(EXIT_FAILURE)
    return report
  }
}
