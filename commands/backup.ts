import {BaseCommand} from '../src/cli/base-command.js'
import {Args} from '../src/cli/oclif.js'
import {renderBackup} from '../src/cli/render/backup.js'
import {backupText} from '../src/core/applications/backup.js'
import {ValidationError} from '../src/core/errors.js'

export default class Backup extends BaseCommand {
  static summary = 'Back up the tracker, the job verdicts, the profile and the config to one JSON file'
  static description =
    'Writes every application with its id, status history, interviews, contacts, salary and notes, every like and ' +
    'dismissal of jobs, the profile and the config without its secrets (notification and monitor URLs, source ' +
    'credentials, URLs with a password) to one versioned JSON file, described in docs/BACKUP.md. The file is ' +
    'written completely, flushed to disk, then put in place. Without FILE it goes to a timestamped file in the ' +
    'data directory; "-" writes it to stdout. Bring it back with: jobagent restore FILE.'
  static examples = [
    '<%= config.bin %> backup',
    '<%= config.bin %> backup ~/jobagent-backup.json',
    '<%= config.bin %> backup - > jobagent-backup.json',
    '<%= config.bin %> backup ~/jobagent-backup.json --json',
  ]
  static enableJsonFlag = true
  static args = {
    file: Args.string({description: 'File to write; "-" for stdout (default: a timestamped file in the data dir).'}),
  }

  async run() {
    const {args} = await this.parse(Backup)
    const backups = await this.context.openTrackerBackup()
    if (args.file === '-') {
      if (this.jsonEnabled()) {
        throw new ValidationError('backup - writes the backup to stdout, where --json would write its summary', {
          hint: 'give a file with --json: jobagent backup FILE --json',
        })
      }
      const backup = await backups.create()
      this.io.stdout.write(backupText(backup))
      this.logToStderr(renderBackup(backups.summary(backup, null)))
      return backups.summary(backup, null)
    }
    const summary = await backups.writeFile(args.file ?? backups.defaultPath())
    this.log(renderBackup(summary))
    return summary
  }
}
