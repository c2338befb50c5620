import {BaseCommand} from '../src/cli/base-command.js'
import {Args, Flags} from '../src/cli/oclif.js'
import {renderRemoval} from '../src/cli/render/applications.js'
import {trackedRecord} from '../src/core/applications/application.js'

export default class Remove extends BaseCommand {
  static summary = 'Take an application out of lists and stats, bring it back, or delete it for good'
  static description =
    'A removed application leaves status, followups, stats and the counts of the run, and keeps its history: ' +
    '--undo brings it back as it was. --purge deletes it with its history, interviews, contacts and the like that ' +
    'tracking its job gave; that cannot be undone, so on a terminal it asks first, and elsewhere it needs --yes.'
  static examples = [
    '<%= config.bin %> remove 12',
    '<%= config.bin %> remove 12 --undo',
    '<%= config.bin %> remove 12 --purge',
    '<%= config.bin %> remove 12 --purge --yes',
  ]
  static enableJsonFlag = true
  static args = {
    application: Args.string({description: 'Short id (12) or URL of a tracked application.', required: true}),
  }
  static flags = {
    undo: Flags.boolean({description: 'Bring a removed application back.', exclusive: ['purge']}),
    purge: Flags.boolean({description: 'Delete it for good, with its history.', exclusive: ['undo']}),
    yes: Flags.boolean({
      char: 'y',
      description: 'With --purge: delete without asking (needed off a terminal).',
      dependsOn: ['purge'],
    }),
  }

  async run() {
    const {args, flags} = await this.parse(Remove)
    const tracker = this.context.applications
    if (flags.purge) {
      const {id, title, company} = await tracker.find(args.application)
      await this.confirm({
        question: `Delete #${id} ${title} at ${company} for good, with its history, interviews and contacts?`,
        refusal: `remove --purge deletes #${id} for good`,
        withYes: `jobagent remove ${id} --purge --yes`,
        yes: flags.yes,
      })
      const purged = await tracker.purge(String(id))
      this.log(renderRemoval(purged, 'purged'))
      return {...trackedRecord(purged), purged: true}
    }
    const {previous, current} = await tracker.remove(args.application, !flags.undo)
    const changed = previous.removed_at !== current.removed_at
    this.log(renderRemoval(current, flags.undo ? (changed ? 'restored' : 'listed') : changed ? 'removed' : 'gone'))
    return {...trackedRecord(current), purged: false}
  }
}
