import {BaseCommand} from '../src/cli/base-command.js'
import {Args, Flags} from '../src/cli/oclif.js'
import {
  renderApplication,
  renderApplicationTable,
  renderContacts,
  renderCounts,
  renderStatusChange,
} from '../src/cli/render/applications.js'
import {listFilterFlags} from '../src/cli/tracker-flags.js'
import {APPLICATION_STATUSES, trackedRecord} from '../src/core/applications/application.js'
import {applicationInFull, applicationInFullDocument} from '../src/core/applications/application-in-full.js'
import {ValidationError} from '../src/core/errors.js'

export default class Status extends BaseCommand {
  static summary = 'List tracked applications, show one, or change its status'
  static description =
    'Without arguments, lists the applications (ids first) with the counts (total, applied, pending); --search, ' +
    '--source, --since and --status filter the list. With an id or URL, shows that application, its interviews and its history. ' +
    'With an id or URL and a status, changes the status: the notes are replaced by --notes (empty by default) and ' +
    `the old status and notes are kept in the history. Statuses: ${APPLICATION_STATUSES.join(', ')}.`
  static examples = [
    '<%= config.bin %> status',
    '<%= config.bin %> status --status interviewing',
    '<%= config.bin %> status --search acme --since 30d',
    '<%= config.bin %> status 12',
    '<%= config.bin %> status 12 interviewing --notes "call on Tuesday"',
    '<%= config.bin %> status https://example.org/jobs/42 offer',
    '<%= config.bin %> status 12 --snooze 7',
    '<%= config.bin %> status --json > applications.json',
  ]
  static enableJsonFlag = true
  static args = {
    application: Args.string({description: 'Short id (12) or URL of a tracked application.'}),
    'new-status': Args.string({description: `New status (${APPLICATION_STATUSES.join(', ')}).`}),
  }
  static flags = {
    status: Flags.string({description: 'List only applications with this status.', options: [...APPLICATION_STATUSES]}),
    ...listFilterFlags,
    notes: Flags.string({description: 'Notes for the new status (replace the current notes; default: none).'}),
    snooze: Flags.integer({
      description: 'With an application: postpone its follow-up by this many days (see jobagent followups).',
      min: 1,
      max: 365,
    }),
  }

  async run() {
    const {args, flags} = await this.parse(Status)
    const tracker = this.context.applications
    const ref = args.application
    if (flags.notes !== undefined && !args['new-status']) {
      throw new ValidationError('--notes goes with a new status', {
        hint: 'change the status and notes together: jobagent status <id> <status> --notes "..."',
      })
    }
    const filter = {status: flags.status, search: flags.search, source: flags.source, since: flags.since}
    if (ref && Object.values(filter).some((value) => value !== undefined)) {
      throw new ValidationError('--status, --search, --source and --since filter the list; they go without an id', {
        hint: 'list with: jobagent status --status <status>; change one with: jobagent status <id> <status>',
      })
    }
    if (flags.snooze !== undefined) {
      if (!ref || args['new-status']) {
        throw new ValidationError('--snooze goes with the id or URL of an application alone', {
          hint: 'postpone a follow-up with: jobagent status <id> --snooze 7',
        })
      }
      const application = await tracker.find(ref)
      const until = await this.context.followUps.snooze(application, flags.snooze)
      this.log(`No follow-up for #${application.id} ${application.url} before ${until.slice(0, 10)}.`)
      return {id: application.id, url: application.url, snoozed_until: until}
    }
    if (ref && args['new-status']) {
      const change = await tracker.changeStatus(ref, args['new-status'], flags.notes ?? '')
      this.log(renderStatusChange(change))
      return {application: trackedRecord(change.current), previous_status: change.previous.status}
    }
    if (ref) {
      const _found = await tracker.get(ref)
      const full = await applicationInFull(this.context, ref)
      this.log(
        [
          renderApplication(full, this.style, {interviews: full.interviews, now: this.clock.now()}),
          renderContacts(full.contacts, this.style),
        ]
          .filter(Boolean)
          .join('\n'),
      )
      return applicationInFullDocument(full)
    }
    const {applications, counts} = await tracker.list(filter)
    // --json prints the records with their contacts (the JSON export) and no table; the table needs neither.
    if (this.jsonEnabled()) return this.context.contacts.withContacts(applications)
    this.log(renderApplicationTable(applications, this.style, {filter, total: counts.total, width: this.terminalWidth}))
    this.log(`\n${renderCounts(counts)}`)
    return undefined
  }
}
