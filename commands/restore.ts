import {BaseCommand} from '../src/cli/base-command.js'
import {firstLine} from '../src/cli/confirm.js'
import {EXIT_FAILURE} from '../src/cli/exit-codes.js'
import {Args, Flags} from '../src/cli/oclif.js'
import {renderRestore} from '../src/cli/render/backup.js'
import type {RestoreMode} from '../src/core/applications/backup.js'

export default class Restore extends BaseCommand {
  static summary = 'Restore a backup made by jobagent backup'
  static description =
    'All or nothing: every record of the file is checked first (a bad field is named by its place, such as ' +
    'applications[3].status), the tracker is written in one transaction, and the config file only after that. ' +
    'Ids are kept. A home that already holds applications, verdicts or settings needs a choice, asked on a ' +
    'terminal: --replace empties the tracker (applications with their history, interviews and contacts; verdicts) ' +
    'and restores the file, keeping the secret settings of this home; --merge keeps everything this home holds and ' +
    'adds the applications of the file whose URL is not tracked here (under their own id, or a new one when the ' +
    'id is taken), the verdicts on jobs without one, and the settings this home does not set. ' +
    'A file of a newer format version is refused.'
  static examples = [
    '<%= config.bin %> restore ~/jobagent-backup.json',
    '<%= config.bin %> restore ~/jobagent-backup.json --replace',
    '<%= config.bin %> restore ~/jobagent-backup.json --merge --json',
  ]
  static enableJsonFlag = true
  static args = {file: Args.string({description: 'Backup file written by jobagent backup.', required: true})}
  static flags = {
    replace: Flags.boolean({description: 'Empty the tracker, then restore the file.', exclusive: ['merge']}),
    merge: Flags.boolean({description: 'Keep what this home holds; add what it lacks.', exclusive: ['replace']}),
  }

  async run() {
    const {args, flags} = await this.parse(Restore)
    const backups = await this.context.openTrackerBackup()
    let mode: RestoreMode | undefined = flags.replace ? 'replace' : flags.merge ? 'merge' : undefined
    if (mode === undefined && this.io.stdin.isTTY === true && this.io.stdout.isTTY === true) {
      const home = await backups.homeContents()
      if (home.applications + home.verdicts + home.settings > 0) mode = await this.askMode(home)
    }
    const summary = await backups.restoreFile(args.file, mode)
    this.log(renderRestore(summary))
    return summary
  }

  private async askMode(home: {applications: number; verdicts: number; settings: number}): Promise<RestoreMode> {
    this.io.stderr.write(
      `This home holds ${home.applications} application(s), ${home.verdicts} verdict(s) and ${home.settings} setting(s). ` +
        'Replace them with the backup (r), merge the backup into them (m), or stop (Enter)? ',
    )
    const answer = (await firstLine(this.io.stdin)).trim().toLowerCase()
    if (answer === 'r' || answer === 'replace') return 'replace'
    if (answer === 'm' || answer === 'merge') return 'merge'
    this.io.stderr.write('Nothing was restored.\n')
    return this.exit(EXIT_FAILURE)
  }
}
