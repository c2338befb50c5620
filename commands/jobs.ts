import {BaseCommand} from '../src/cli/base-command.js'
import {Flags} from '../src/cli/oclif.js'
import {renderJobTable} from '../src/cli/render/jobs.js'

export default class Jobs extends BaseCommand {
  static summary = 'List the jobs found by the last run'
  static description =
    'New jobs (not yet applied for) come first. The ID column is what "jobagent apply <id>" takes. ' +
    "The STATUS column shows the tracked application's status when the job is tracked."
  static examples = [
    '<%= config.bin %> jobs',
    '<%= config.bin %> jobs --new',
    '<%= config.bin %> jobs --new --json | jq ".[].url"',
  ]
  static enableJsonFlag = true
  static flags = {new: Flags.boolean({description: 'Only jobs not yet applied for.'})}

  async run() {
    const {flags} = await this.parse(Jobs)
    const {run, jobs} = await this.context.jobCatalog.lastRun({newOnly: flags.new})
    if (!run) this.log('No run yet. Search the boards with: jobagent run')
    else this.log(renderJobTable(jobs, run, this.style))
    return jobs
  }
}
