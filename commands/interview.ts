import {BaseCommand} from '../src/cli/base-command.js'
import {Args, Flags} from '../src/cli/oclif.js'
import {renderAddedInterview, renderRemovedInterview} from '../src/cli/render/interviews.js'
import {trackedRecord} from '../src/core/applications/application.js'
import {INTERVIEW_KINDS} from '../src/core/applications/interview-fields.js'
import {interviewRecord} from '../src/core/applications/interviews.js'
import {ValidationError} from '../src/core/errors.js'

export default class Interview extends BaseCommand {
  static summary = 'Add an interview to a tracked application'
  static description =
    'The time is local, in your time zone (TZ, else the system zone) unless --zone names another; it is kept with ' +
    'the zone. An application that was saved or applied moves to interviewing; the interview and the move are kept ' +
    'in its history. --with names a contact of the application (its number or exact name) or anyone else. A time the clocks skip or pass twice that day in that zone (daylight saving) is refused with ' +
    'both readings; give the one meant with its offset ("2026-03-29 03:30+02:00"). A past time needs --past (a ' +
    'record of what happened). List interviews with "jobagent interviews".'
  static examples = [
    '<%= config.bin %> interview 12 --at "2026-12-02 14:00"',
    '<%= config.bin %> interview 12 --at 2026-12-02T14:00 --kind video --with "Ann Lee, CTO" --notes "system design"',
    '<%= config.bin %> interview 12 --at "2026-12-02 14:00" --with 3 --with "Bo Chen, CTO"',
    '<%= config.bin %> interview 12 --at "2026-12-03 09:30" --zone America/New_York --kind phone',
    '<%= config.bin %> interview 12 --at "2026-12-04 10:00" --duration 45m --kind video --link https://meet.example.org/abc',
    '<%= config.bin %> interview 12 --at "2026-12-05 14:00" --end "2026-12-05 16:00" --kind onsite --place "Acme HQ, Berlin"',
    '<%= config.bin %> interview 12 --at "2026-11-20 10:00" --past --notes "went well"',
    '<%= config.bin %> interview 12 --remove 3',
  ]
  static enableJsonFlag = true
  static args = {
    application: Args.string({description: 'Short id (12) or URL of a tracked application.', required: true}),
  }
  static flags = {
    at: Flags.string({
      description: 'When it starts: "YYYY-MM-DD HH:MM", local time (required to add).',
      exclusive: ['remove'],
    }),
    remove: Flags.integer({
      description: 'Remove the interview with this number (see jobagent status <id>) instead of adding one.',
      min: 1,
    }),
    kind: Flags.string({description: 'What kind of interview.', options: [...INTERVIEW_KINDS]}),
    with: Flags.string({
      description:
        'Who you meet, one person per --with (repeat it): a contact of the application by number or exact name ' +
        '(see jobagent status <id>), or anyone else as text, e.g. "Bo Chen, CTO".',
      multiple: true,
    }),
    notes: Flags.string({description: 'Notes on the interview.'}),
    zone: Flags.string({description: 'The IANA time zone of --at, e.g. Europe/Berlin (default: yours).'}),
    end: Flags.string({description: 'When it ends: "YYYY-MM-DD HH:MM", local time (default: an hour after --at).'}),
    duration: Flags.string({description: 'How long it lasts instead of --end: 45m, 1h, 1h30m.'}),
    place: Flags.string({description: 'Where it takes place, e.g. "Acme HQ, room 4".'}),
    link: Flags.string({description: 'The video link (http or https).'}),
    past: Flags.boolean({description: 'Record an interview that took place: a past --at is refused without it.'}),
  }

  async run() {
    const {args, flags} = await this.parse(Interview)
    if (flags.remove !== undefined) {
      const removed = await this.context.interviews.remove(args.application, flags.remove)
      this.log(renderRemovedInterview(removed))
      return {interview: interviewRecord(removed)}
    }
    if (flags.at === undefined) {
      throw new ValidationError('--at or --remove is required', {
        hint: 'add one with: jobagent interview <id> --at "2026-12-02 14:00"',
      })
    }
    const added = await this.context.interviews.schedule(args.application, {
      at: flags.at,
      kind: flags.kind,
      with: flags.with,
      notes: flags.notes,
      time_zone: flags.zone,
      ends_at: flags.end,
      duration: flags.duration,
      place: flags.place,
      link: flags.link,
      past: flags.past,
    })
    this.log(renderAddedInterview(added))
    return {
      interview: interviewRecord(added.interview),
      application: trackedRecord(added.current),
      previous_status: added.previous.status,
    }
  }
}
