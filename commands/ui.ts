import {LineLogger, logLevelFor, TimestampCache} from '../src/app/line-logger.js'
import {BaseCommand} from '../src/cli/base-command.js'
import {colourEnabled} from '../src/cli/style.js'
import {ValidationError} from '../src/core/errors.js'
import type {Logger} from '../src/core/logger.js'

const KEPT_LOG_LINES = 200

export default class Ui extends BaseCommand {
  static summary = 'Open the interactive terminal dashboard of jobs and applications'
  static description =
    "Browse the last run's jobs and the tracked applications, track jobs, change statuses and notes, export CSV " +
    'and run a search, with the keys shown in the footer (? lists them all). Every change is written at once. ' +
    'Needs an interactive terminal: when stdout or stdin is not one, it exits 2 and points to the plain commands. ' +
    'Log warnings written while the dashboard is open are printed when it closes.'
  static examples = ['<%= config.bin %> ui', '$ NO_COLOR=1 <%= config.bin %> ui']

  private readonly logLines: string[] = []

  // The screen belongs to the dashboard: log lines (of a search run with r) are kept and printed on quit.
  protected get logger(): Logger {
    const level = logLevelFor({verbose: this.verbose, quiet: this.quietLogs, env: this.env})
    const sink = {
      write: (line: string) => {
        this.logLines.push(line)
        if (this.logLines.length > KEPT_LOG_LINES) this.logLines.shift()
      },
    }
    return new LineLogger('jobagent', sink, level === 'INFO' ? 'WARNING' : level, new TimestampCache(this.clock))
  }

  async run() {
    await this.parse(Ui)
    const notTerminal = !this.io.stdout.isTTY ? 'stdout' : !this.io.stdin.isTTY ? 'stdin' : null
    if (notTerminal) {
      throw new ValidationError(`jobagent ui needs an interactive terminal, and ${notTerminal} is not one`, {
        hint: 'in scripts and pipes use: jobagent status (applications) or jobagent jobs (found jobs), with --json',
      })
    }
    // React picks its production build from NODE_ENV when it is first loaded; the development build's checks
    // slow every render and are meant for those who work on the components.
    process.env.NODE_ENV ??= 'production'
    // Ink and React are loaded here only, so no other command pays for them; their files are read while the
    // configuration is loaded.
    const loading = import('../src/ui/dashboard.js')
    const context = this.context
    const {runDashboard} = await loading
    try {
      await runDashboard(context, {
        colour: colourEnabled(this.io.stdout, this.env),
        stdout: this.io.stdout,
        stdin: this.io.stdin,
        env: this.env,
      })
    } finally {
      for (const line of this.logLines) this.io.stderr.write(`${line}\n`)
    }
  }
}
