import {BaseCommand} from '../src/cli/base-command.js'
import {trackedRecord} from '../src/core/applications/application.js'
import {remindersDue} from '../src/core/applications/reminders.js'
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
    const due = remindersDue(interviews, nextActions, this.clock.now(), this.context.interviews.timeZone)
    const lines = [
      ...due.interviews.map(
        (one) =>
          `Interview ${one.starts_at.slice(0, 10) === due.today ? 'today' : 'tomorrow'} ${one.starts_at.slice(11)} ${one.time_zone}: ${shown(one.application.title)} at ${shown(one.application.company)} (#${one.application.id})`,
      ),
      ...due.next_actions.map(
        (one) =>
          `Next action ${(one.next_action_due ?? '') < due.today ? `overdue since ${one.next_action_due}` : `due ${one.next_action_due}`}: ${shown(one.next_action)} for #${one.id} ${shown(one.title)} at ${shown(one.company)}`,
      ),
    ]
    this.log(lines.length > 0 ? lines.join('\n') : 'Nothing due today or tomorrow: no interview and no next action.')
    return {...due, next_actions: due.next_actions.map(trackedRecord)}
  }
}
