import {BaseCommand} from '../src/cli/base-command.js'
import {checkJobsFlags, needsProfile} from '../src/cli/jobs-flags.js'
import {Args, Flags} from '../src/cli/oclif.js'
import {renderJobTable} from '../src/cli/render/jobs.js'
import {renderVerdict} from '../src/cli/render/verdicts.js'
import {listFilterFlags} from '../src/cli/tracker-flags.js'

export default class Jobs extends BaseCommand {
  static summary = 'List the jobs found by the last run, show one in full, or like or dismiss one'
  static description =
    'Without a profile, new jobs (not yet applied for) come first. The ID column is what "jobagent jobs <id>" and ' +
    '"jobagent apply <id>" take. The STATUS column shows the tracked application\'s status when the job is tracked. ' +
    'With an id, the job is shown in full: salary, type, workplace and the description. With a profile in the ' +
    'config (jobagent profile), jobs are listed by score, highest first; a job shown by its id gives the reasons, ' +
    '--explain every factor. --like and --dismiss ' +
    'teach the ranking at once; a dismissed job is hidden and never notified again (see docs/MATCHING.md). ' +
    'Jobs no board lists any more are closed (see docs/LIFECYCLE.md) and hidden unless --closed or --all.'
  static examples = [
    '<%= config.bin %> jobs',
    '<%= config.bin %> jobs --new',
    '<%= config.bin %> jobs 17',
    '<%= config.bin %> jobs --min-score 60',
    '<%= config.bin %> jobs 17 --explain',
    '<%= config.bin %> jobs 17 --like',
    '<%= config.bin %> jobs 23 --dismiss --reason "too senior"',
    '<%= config.bin %> jobs 23 --undo',
    '<%= config.bin %> jobs --dismissed',
    '<%= config.bin %> jobs --search typescript --source greenhouse --since 7d',
    '<%= config.bin %> jobs --new --json | jq ".[].url"',
  ]
  static enableJsonFlag = true
  static args = {id: Args.integer({description: 'A job id from the list: show, like or dismiss that job.', min: 1})}
  static flags = {
    new: Flags.boolean({description: 'Only jobs not yet applied for.'}),
    'min-score': Flags.integer({description: 'Only jobs scored this or more (needs a profile).', min: 0, max: 100}),
    explain: Flags.boolean({description: 'With an id: every part of the score and what made it.'}),
    like: Flags.boolean({description: 'With an id: you like the job; jobs like it rank higher.'}),
    dismiss: Flags.boolean({description: 'With an id: hide the job for good; jobs like it rank lower.'}),
    reason: Flags.string({description: 'With --like or --dismiss: why, in a few words.'}),
    undo: Flags.boolean({description: 'With an id: take back its like or dismissal.'}),
    dismissed: Flags.boolean({description: 'Only the jobs you dismissed (without an id).'}),
    closed: Flags.boolean({description: 'Only closed jobs (no board lists them any more).', exclusive: ['all']}),
    all: Flags.boolean({description: "The last run's jobs and the closed ones."}),
    ...listFilterFlags('jobs'),
  }

  async run() {
    const {args, flags} = await this.parse(Jobs)
    const verdict = checkJobsFlags(flags, args.id)
    const catalog = await this.context.openJobCatalog()
    if ((flags.explain || flags['min-score'] !== undefined) && !catalog.scored) throw needsProfile(flags.explain)
    if (args.id !== undefined && (verdict || flags.undo)) {
      const result = verdict
        ? await catalog.giveVerdict(args.id, verdict, {reason: flags.reason ?? null})
        : {undone: await catalog.undoVerdict(args.id)}
      this.log(renderVerdict(result))
      return result
    }
    if (args.id !== undefined) {
      // The detail view's text wrapping is loaded only here: the list does not need it.
      const [job, {renderJobDetail}] = await Promise.all([
        catalog.show(args.id),
        import('../src/cli/render/job-detail.js'),
      ])
      this.log(
        renderJobDetail(job, this.style, this.io.stdout.columns ?? 80, {explain: flags.explain, now: this.clock.now()}),
      )
      const {parts, ...listed} = job
      return flags.explain ? job : listed
    }
    const state = flags.closed ? 'closed' : flags.all || flags.dismissed ? 'all' : 'open'
    const filter = {search: flags.search, source: flags.source, since: flags.since}
    const listing = {
      newOnly: flags.new,
      minScore: flags['min-score'],
      state,
      dismissed: flags.dismissed,
      filter,
    } as const
    // --json prints every field of each job; the table shows a few, and reads only those.
    if (this.jsonEnabled()) return (await catalog.lastRun(listing)).jobs
    const {run, jobs, new_jobs} = await catalog.lastRun({...listing, fields: 'summary'})
    if (!run) this.log('No run yet. Search the boards with: jobagent run')
    else
      this.log(renderJobTable(jobs, run, new_jobs, this.style, {dismissed: flags.dismissed, width: this.terminalWidth}))
    return jobs
  }
}
