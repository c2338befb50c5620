import {BaseCommand} from '../src/cli/base-command.js'
import {Args, Flags} from '../src/cli/oclif.js'
import {renderImport} from '../src/cli/render/applications.js'

export default class Import extends BaseCommand {
  static summary = 'Import applications from a JSON or CSV file'
  static description =
    'Reads a JSON array of application records (what "jobagent status --json" prints) or a CSV with ' +
    "the export's columns. All or nothing: if any row is invalid, the rows are listed with their numbers and nothing " +
    'is written. Applications already tracked are reported and left unchanged unless --update is given.'
  static examples = ['<%= config.bin %> import applications.json', '<%= config.bin %> import applications.csv --update']
  static enableJsonFlag = true
  static args = {file: Args.string({description: 'A .json or .csv file.', required: true})}
  static flags = {
    update: Flags.boolean({description: 'Overwrite applications that are already tracked (history is kept).'}),
  }

  async run() {
    const {args, flags} = await this.parse(Import)
    const outcome = await (await this.context.openTrackerFiles()).importFile(args.file, {update: flags.update})
    this.log(renderImport(outcome))
    return outcome
  }
}
