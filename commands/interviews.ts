import {BaseCommand} from '../src/cli/base-command.js'
import {Flags} from '../src/cli/oclif.js'
import {renderInterviewTable} from '../src/cli/render/interviews.js'
import {scheduledRecord} from '../src/core/applications/interviews.js'
import {ValidationError} from '../src/core/errors.js'

export default class Interviews extends BaseCommand {
  static summary = 'List interviews, upcoming first, or write them as a calendar file'
  static description =
    'Upcoming interviews, soonest first; --all adds the past ones after them, latest first. --ics writes every ' +
    'interview as an iCalendar file (RFC 5545) that calendar apps import: one event per interview at its local ' +
    'time with its zone, as long as the interview (--duration or --end; an hour when it was not given). GET /interviews.ics serves the same file for a calendar subscription.'
  static examples = [
    '<%= config.bin %> interviews',
    '<%= config.bin %> interviews --all',
    '<%= config.bin %> interviews --ics > interviews.ics',
    '<%= config.bin %> interviews --json',
  ]
  static enableJsonFlag = true
  static flags = {
    all: Flags.boolean({description: 'Also list past interviews.'}),
    ics: Flags.boolean({description: 'Write every interview as an iCalendar file to stdout.'}),
  }

  async run() {
    const {flags} = await this.parse(Interviews)
    if (flags.ics) {
      if (this.jsonEnabled()) {
        throw new ValidationError('--ics and --json are two outputs; choose one', {
          hint: 'jobagent interviews --ics > interviews.ics',
        })
      }
      for (const part of await this.context.interviewCalendar()) this.io.stdout.write(part)
      return undefined
    }
    const interviews = await this.context.interviews.list({all: flags.all})
    if (this.jsonEnabled()) return interviews.map(scheduledRecord)
    this.log(renderInterviewTable(interviews, this.style, {all: flags.all, width: this.terminalWidth}))
    return undefined
  }
}
