import {BaseCommand} from '../src/cli/base-command.js'
import {Args, Flags} from '../src/cli/oclif.js'
import {
  renderApplication,
  renderApplicationTable,
  renderCounts,
  renderStatusChange,
} from '../src/cli/render/applications.js'
import {
  APPLICATION_STATUSES,
  applicationDetail,
  applicationRecord,
  trackedRecord,
} from '../src/core/applications/application.js'
import {ValidationError} from '../src/core/errors.js'

export default class Status extends BaseCommand {
  static summary = 'List tracked applications, show one, or change its status'
  static description =
    'Without arguments, lists every application with the counts (total, applied, pending). ' +
    'With a URL, shows that application and its status history. With a URL and a status, changes the status: ' +
    'the notes are replaced by --notes (empty by default) and the old status and notes are kept in the history. ' +
    `Statuses: ${APPLICATION_STATUSES.join(', ')}.`
  static examples = [
    '<%= config.bin %> status',
    '<%= config.bin %> status --status interviewing',
    '<%= config.bin %> status https://example.org/jobs/42',
    '<%= config.bin %> status https://example.org/jobs/42 interviewing --notes "call on Tuesday"',
    '<%= config.bin %> status https://example.org/jobs/42 --snooze 7',
    '<%= config.bin %> status --json > applications.json',
  ]
  static enableJsonFlag = true
  static args = {
    url: Args.string({description: 'URL of a tracked application.'}),
    'new-status': Args.string({description: `New status (${APPLICATION_STATUSES.join(', ')}).`}),
  }
  static flags = {
    status: Flags.string({description: 'List only applications with this status.', options: [...APPLICATION_STATUSES]}),
    notes: Flags.string({description: 'Notes for the new status (replace the current notes; default: none).'}),
    snooze: Flags.integer({
      description: 'With a URL: postpone its follow-up by this many days (see jobagent followups).',
      min: 1,
      max: 365,
    }),
  }

  async run() {
    const {args, flags} = await this.parse(Status)
    const tracker = this.context.applications
    if (flags.notes !== undefined && !args['new-status']) {
      throw new ValidationError('--notes goes with a new status', {
        hint: 'change the status and notes together: jobagent status <url> <status> --notes "..."',
      })
    }
    if (args.url && flags.status) {
      throw new ValidationError('--status filters the list; it cannot be used with a URL', {
        hint: 'list by status with: jobagent status --status <status>; change one with: jobagent status <url> <status>',
      })
    }
    if (flags.snooze !== undefined) {
      if (!args.url || args['new-status']) {
        throw new ValidationError('--snooze goes with the URL of an application alone', {
          hint: 'postpone a follow-up with: jobagent status <url> --snooze 7',
        })
      }
      const until = await this.context.followUps.snooze(args.url, flags.snooze)
      this.log(`No follow-up for ${args.url} before ${until.slice(0, 10)}.`)
      return {url: args.url, snoozed_until: until}
    }
    if (args.url && args['new-status']) {
      const change = await tracker.changeStatus(args.url, args['new-status'], flags.notes ?? '')
      this.log(renderStatusChange(change))
      return {application: applicationRecord(change.current), previous_status: change.previous.status}
    }
    if (args.url) {
      const found = await tracker.get(args.url)
      this.log(renderApplication(found, this.style))
      return applicationDetail(found)
    }
    const {applications, counts} = await tracker.list(flags.status ? {status: flags.status} : {})
    // --json prints the records and no table; the table needs no records.
    if (this.jsonEnabled()) return applications.map(trackedRecord)
    this.log(renderApplicationTable(applications, this.style, {status: flags.status, total: counts.total}))
    this.log(`\n${renderCounts(counts)}`)
    return undefined
  }
}
