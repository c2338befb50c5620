import {BaseCommand} from '../src/cli/base-command.js'
import {trackedRecord} from '../src/core/applications/application.js'
import {soonLine} from '../src/core/applications/interviews.js'
import {nextActionReminderLine, remindersDue} from '../src/core/applications/reminders.js'
import {escapeControls as shown} from '../src/core/control-characters.js'

export default class Remind extends BaseCommand {
  static summary = "Name today's and tomorrow's interviews and the next actions due, for cron"
  static description =
    'Interviews starting today or tomorrow (your time zone) and next actions due by tomorrow, overdue ones ' +
    'included, soonest first. Exits 0 and says so when nothing is due.'
  static examples = ['<%= config.bin %> remind', '<%= config.bin %> remind --json']
  static enableJsonFlag = true

  async run() {
    const [interviews, nextActions] = await Promise.all([
      this.context.interviews.list(),
      this.context.followUps.nextActions(),
    ])
    const zone = this.context.interviews.timeZone
    const due = remindersDue(interviews, nextActions, this.clock.now(), zone)
    // A cell of outside text never drives the terminal: the lines are shown with their controls escaped.
    const lines = [
      ...due.interviews.map((one) => shown(soonLine(one))),
      ...due.next_actions.map((one) => shown(nextActionReminderLine(one, due.today))),
    ]
    this.log(lines.length > 0 ? lines.join('\n') : 'Nothing due today or tomorrow: no interview and no next action.')
    return {...due, next_actions: due.next_actions.map(trackedRecord)}
  }
}
