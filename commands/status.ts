import {BaseCommand} from '../src/cli/base-command.js'
import {Args, Flags} from '../src/cli/oclif.js'
import {
  nextActionText,
  renderApplication,
  renderApplicationTable,
  renderContacts,
  renderCounts,
  renderStatusChange,
} from '../src/cli/render/applications.js'
import {listFilterFlags} from '../src/cli/tracker-flags.js'
import {APPLICATION_STATUSES, trackedRecord} from '../src/core/applications/application.js'
import {applicationInFull, applicationInFullDocument} from '../src/core/applications/application-in-full.js'
import {WAITING_STATUSES} from '../src/core/applications/follow-ups.js'
import {definedFields} from '../src/core/defined-fields.js'
import {ValidationError} from '../src/core/errors.js'

export default class Status extends BaseCommand {
  static summary = 'List tracked applications, show one, or change its status'
  static description =
    'Without arguments, lists the applications (ids first) with the counts (total, applied, pending); --search, ' +
    '--source, --since and --status filter the list. With an id or URL, shows that application, its interviews and its history. ' +
    'With an id or URL and --next (and --due), sets what to do next for it; --due alone moves its date; --done ' +
    'or --next "" clears it. ' +
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
    '<%= config.bin %> status 12 --next "send portfolio" --due 2026-12-05',
    '<%= config.bin %> status 12 --due 2026-12-08',
    '<%= config.bin %> status 12 --done',
    '<%= config.bin %> status --json > applications.json',
  ]
  static enableJsonFlag = true
  static args = {
    application: Args.string({description: 'Short id (12) or URL of a tracked application.'}),
    'new-status': Args.string({description: `New status (${APPLICATION_STATUSES.join(', ')}).`}),
  }
  static flags = {
    status: Flags.string({description: 'List only applications with this status.', options: [...APPLICATION_STATUSES]}),
    ...listFilterFlags('applications'),
    notes: Flags.string({description: 'Notes for the new status (replace the current notes; default: none).'}),
    snooze: Flags.integer({
      description: 'With an application: postpone its follow-up by this many days (see jobagent followups).',
      min: 1,
      max: 365,
    }),
    next: Flags.string({
      description: 'With an application: what you mean to do next for it ("" clears it and its due date).',
    }),
    due: Flags.string({description: 'With --next, or alone to move it: the day the next action is due (YYYY-MM-DD).'}),
    done: Flags.boolean({description: 'With an application: the next action is done; clears it and its due date.'}),
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
      if (!WAITING_STATUSES.includes(application.status)) {
        // Kept, since it counts once the application waits; said, since today it postpones nothing.
        this.io.stderr.write(
          `Note: #${application.id} is ${application.status}; follow-ups are for ${WAITING_STATUSES.join(' and ')} applications, so the snooze counts only once it is one\n`,
        )
      }
      return {id: application.id, url: application.url, snoozed_until: until}
    }
    if (flags.next !== undefined || flags.due !== undefined || flags.done) {
      if (!ref || args['new-status'] || (flags.done && (flags.next !== undefined || flags.due !== undefined))) {
        throw new ValidationError('--next, --due and --done go with the id or URL of an application alone', {
          hint: 'set one with: jobagent status <id> --next "send portfolio" --due 2026-12-05; clear it with --done',
        })
      }
      const change = flags.done ? {action: ''} : definedFields({action: flags.next, due: flags.due})
      const {previous, current} = await tracker.setNext(ref, change)
      this.log(
        current.next_action
          ? `Next for #${current.id} ${current.title}: ${nextActionText(current)}.`
          : previous.next_action
            ? `Done: ${nextActionText(previous)} (#${current.id} ${current.title}); no next action now.`
            : `No next action for #${current.id} ${current.title}.`,
      )
      return trackedRecord(current)
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
