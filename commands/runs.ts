import {BaseCommand} from '../src/cli/base-command.js'
import {Flags} from '../src/cli/oclif.js'
import {renderRunTable} from '../src/cli/render/runs.js'
import {RUNS_PAGE} from '../src/core/paging.js'

export default class Runs extends BaseCommand {
  static summary = 'List the recent runs: when, how long, outcome, jobs found, new, notified, each board'
  static description =
    'The run ledger, newest first. Dry runs and demo runs are not recorded. --json prints the page with every ' +
    "board's outcome in full."
  static examples = ['<%= config.bin %> runs', '<%= config.bin %> runs --limit 5', '<%= config.bin %> runs --json']
  static enableJsonFlag = true
  static flags = {
    limit: Flags.integer({
      description: `How many runs to show (1-${RUNS_PAGE.maxLimit}).`,
      default: RUNS_PAGE.defaultLimit,
      min: 1,
      max: RUNS_PAGE.maxLimit,
    }),
  }

  async run() {
    const {flags} = await this.parse(Runs)
    const page = await this.context.runLedger.list({limit: flags.limit})
    this.log(renderRunTable(page.runs, page.total, this.style, this.terminalWidth))
    return page
  }
}
