import {BaseCommand} from '../src/cli/base-command.js'
import {renderFollowUps, renderNextActions} from '../src/cli/render/follow-ups.js'
import {renderInterviewReminders} from '../src/cli/render/interviews.js'
import {followUpsDocument} from '../src/core/applications/follow-ups.js'

export default class FollowUpsCommand extends BaseCommand {
  static summary = 'List the applications due for a follow-up'
  static description =
    'Applications in "applied" or "interviewing" whose status has not changed for followups.after_days days ' +
    '(default 7), longest waiting first. Postpone one with "jobagent status <url> --snooze <days>"; a status ' +
    'change starts the wait again. Below them: interviews in the next 48 hours, and applications in ' +
    '"interviewing" whose last interview is over with no change since; last, the next actions, the one due first ' +
    'first (set one with "jobagent status <id> --next ... --due ...").'
  static examples = [
    '<%= config.bin %> followups',
    '<%= config.bin %> followups --json | jq ".applications[].url"',
    '<%= config.bin %> config set followups.after_days 10',
  ]
  static enableJsonFlag = true

  async run() {
    const followUps = this.context.followUps
    const [due, interviews, nextActions] = await Promise.all([
      followUps.due(),
      followUps.interviews(),
      followUps.nextActions(),
    ])
    this.log(
      [
        renderFollowUps(due, followUps.afterDays, this.style, {width: this.terminalWidth, now: this.clock.now()}),
        ...renderInterviewReminders(interviews),
        ...renderNextActions(nextActions, this.style),
      ].join('\n'),
    )
    return followUpsDocument(due, followUps.afterDays, interviews, nextActions)
  }
}
