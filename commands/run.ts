import {runAgent} from '../src/app/agent.js'
import {preferSmallHeap} from '../src/app/batch-heap.js'
import {BaseCommand} from '../src/cli/base-command.js'
import {Flags} from '../src/cli/oclif.js'
import {createSourceProgress} from '../src/cli/progress.js'

export default class Run extends BaseCommand {
  static summary = 'Search the job boards, count new jobs, notify once, log every step'
  static description =
    'The main job, meant for cron. Logs go to stderr in the fixed line format; --json prints one ' +
    'summary document on stdout. Exit status: 0 completed (also with no new jobs or some boards failing), 1 the run ' +
    'failed (no board succeeded, every notification channel failed, a storage error, or any board failed with ' +
    '--strict), 2 usage or configuration error. Two overlapping runs never both run: the second exits 1. ' +
    '--demo runs the whole pipeline offline on sample boards, in a temporary data dir.'
  // Two forms, since oclif's generated line reads --demo's exclusions and --keep's dependency as one nested group.
  static usage = [
    '<%= command.id %> [--tags <value>...] [--source <value>...] [--notify <value>...] [--healthcheck <value>] [--strict] [--mode production|development] [--dry-run] [--renotify] [--json] [--quiet | --verbose]',
    '<%= command.id %> --demo [--keep] [--tags <value>...] [--mode production|development] [--dry-run] [--renotify] [--json] [--quiet | --verbose]',
  ]
  static examples = [
    '<%= config.bin %> run --demo',
    '<%= config.bin %> run',
    '<%= config.bin %> run --tags typescript,node --source remoteok --source remotive',
    '<%= config.bin %> run --dry-run --json',
    '<%= config.bin %> run --notify ntfy://my-job-alerts --quiet --healthcheck https://hc-ping.com/<uuid>',
  ]
  static enableJsonFlag = true
  static flags = {
    tags: Flags.string({
      description: 'Tags to search for, comma separated (replace search.tags).',
      multiple: true,
      delimiter: ',',
    }),
    source: Flags.string({description: 'Search only this source (type or name); repeatable.', multiple: true}),
    notify: Flags.string({description: 'Notification channel URL (replaces notify.urls); repeatable.', multiple: true}),
    mode: Flags.string({description: 'Run mode.', options: ['production', 'development']}),
    'dry-run': Flags.boolean({description: 'Store nothing, send no notification, mark nothing notified.'}),
    renotify: Flags.boolean({description: 'Notify about new jobs again even if notified before.'}),
    strict: Flags.boolean({description: 'Exit 1 when any source failed.'}),
    healthcheck: Flags.string({
      description: "Dead-man's switch URL pinged at start and end (replaces run.healthcheck_url).",
    }),
    demo: Flags.boolean({
      description: 'Run offline on sample boards with sample applications; your own data is never touched.',
      exclusive: ['source', 'notify', 'healthcheck', 'strict'],
    }),
    keep: Flags.boolean({
      description: "With --demo: keep the demo's temporary data dir and say where.",
      dependsOn: ['demo'],
    }),
  }

  async run() {
    preferSmallHeap()
    const {flags} = await this.parse(Run)
    const progress = flags.quiet ? null : createSourceProgress(this.io.stderr)
    this.logSink.redirect(progress)
    const options = {
      tags: flags.tags ?? [],
      dryRun: flags['dry-run'],
      renotify: flags.renotify,
      strict: flags.strict,
      ...(progress ? {onProgress: progress.onProgress, onSearchFinished: () => progress.stop()} : {}),
    }
    const done = () => {
      progress?.stop()
      this.logSink.redirect(null)
    }
    if (flags.demo) {
      const {runDemo} = await import('../src/app/demo.js')
      const demo = await runDemo(
        {logger: this.logger, env: this.env, keep: Boolean(flags.keep), mode: flags.mode},
        options,
      ).finally(done)
      if (this.jsonEnabled()) this.logJson({...demo.summary, demo: {data_dir: demo.data_dir, kept: demo.kept}})
      else if (!flags.quiet) this.log(demo.next_step)
      // Quiet or not, a kept data directory is named: it is the one thing the person needs from a kept demo.
      else if (demo.kept) this.log(`The demo's data is in ${demo.data_dir}`)
      if (demo.summary.exit_code !== 0) this.setExitCode(demo.summary.exit_code)
      return
    }
    const context = this.openContext({
      overrides: {
        mode: flags.mode,
        notify: flags.notify ? {urls: flags.notify} : undefined,
        run: flags.healthcheck ? {healthcheck_url: flags.healthcheck} : undefined,
      },
      selectSources: flags.source ?? [],
    })
    const summary = await runAgent(context, options).finally(done)
    if (this.jsonEnabled()) this.logJson(summary)
    else if (summary.new_jobs > 0 && !flags.quiet) this.log(nextStep(summary.new_jobs, summary.dry_run))
    // Not this.exit(): under --json it would print a second document after the summary.
    if (summary.exit_code !== 0) this.setExitCode(summary.exit_code)
  }
}

/** What a run says it found and how to see it; a dry run stored nothing, so `jobs` would list the run before. */
function nextStep(newJobs: number, dryRun: boolean): string {
  return dryRun
    ? `${newJobs} new job(s) found; a dry run stores nothing. Run without --dry-run to store them, then list them with: jobagent jobs --new`
    : `${newJobs} new job(s). List them with: jobagent jobs --new`
}
