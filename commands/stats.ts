import {BaseCommand} from '../src/cli/base-command.js'
import {Flags} from '../src/cli/oclif.js'
import {renderStats} from '../src/cli/render/stats.js'

export default class Stats extends BaseCommand {
  static summary = 'Funnel statistics: applications per status, stage conversion, response rate and time'
  static description =
    'Counts the tracked applications per status and along the funnel saved -> applied -> interviewing -> offer -> ' +
    'accepted. An application reached a stage when its status, now or at any point of its history, is that stage ' +
    'or a later one (rejected, withdrawn and ghosted show it was applied for). The response rate is the share of ' +
    'applications applied for that moved on from applied to any answer, rejections included; the time to response ' +
    'runs from when it was applied for to the first such change. The same figures follow per source and per month of the ' +
    'applied date, so back-dated imports count in the month they were applied for.'
  static examples = [
    '<%= config.bin %> stats',
    '<%= config.bin %> stats --since 90d',
    '<%= config.bin %> stats --since 6m --json',
  ]
  static enableJsonFlag = true
  static flags = {
    since: Flags.string({
      description:
        'Count only applications applied for within this period: days, weeks, months (30 days) or years, e.g. 90d, 12w, 6m, 1y.',
    }),
  }

  async run() {
    const {flags} = await this.parse(Stats)
    const stats = await this.context.applications.stats(flags.since === undefined ? {} : {since: flags.since})
    this.log(renderStats(stats, this.style))
    return stats
  }
}
