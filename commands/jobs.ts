import {BaseCommand} from '../src/cli/base-command.js'
import {Args, Flags} from '../src/cli/oclif.js'
import {renderJobDetail, renderJobTable} from '../src/cli/render/jobs.js'

export default class Jobs extends BaseCommand {
  static summary = 'List the jobs found by the last run, or show one in full'
  static description =
    'New jobs (not yet applied for) come first. The ID column is what "jobagent jobs <id>" and ' +
    '"jobagent apply <id>" take. The STATUS column shows the tracked application\'s status when the job is tracked. ' +
    'With an id, the job is shown in full: salary, type, workplace and the description.'
  static examples = [
    '<%= config.bin %> jobs',
    '<%= config.bin %> jobs --new',
    '<%= config.bin %> jobs 17',
    '<%= config.bin %> jobs --new --json | jq ".[].url"',
  ]
  static enableJsonFlag = true
  static args = {id: Args.integer({description: 'A job id from the list: show that job in full.', min: 1})}
  static flags = {new: Flags.boolean({description: 'Only jobs not yet applied for.'})}

  async run() {
    const {args, flags} = await this.parse(Jobs)
    if (args.id !== undefined) {
      const job = await this.context.jobCatalog.show(args.id)
      this.log(renderJobDetail(job, this.style, process.stdout.columns ?? 80))
      return job
    }
    const {run, jobs} = await this.context.jobCatalog.lastRun({newOnly: flags.new})
    if (!run) this.log('No run yet. Search the boards with: jobagent run')
    else this.log(renderJobTable(jobs, run, this.style))
    return jobs
  }
}
