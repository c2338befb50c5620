import {BaseCommand} from '../src/cli/base-command.js'
import {Flags} from '../src/cli/oclif.js'

export default class ExportCsv extends BaseCommand {
  static summary = 'Export tracked applications to a CSV file'
  static description =
    'Writes the eight record columns (title, company, location, url, source, applied_date, status, ' +
    'notes) first, then id, the extra fields (salary lines, referral, ...) and the contacts, with a header row, ' +
    'RFC 4180 quoting and UTF-8. The file is written atomically. Cells that begin with ' +
    "= + - @ or a tab are prefixed with ' so spreadsheets do not run them as formulas; --raw turns that off."
  static examples = [
    '<%= config.bin %> export-csv',
    '<%= config.bin %> export-csv --output ~/applications.csv',
    '<%= config.bin %> export-csv --output ./applications.csv --raw',
  ]
  static enableJsonFlag = true
  static flags = {
    output: Flags.string({
      char: 'o',
      description: 'File to write, or a directory to write the timestamped file in (default: the data dir).',
    }),
    raw: Flags.boolean({description: 'Do not guard cells against spreadsheet formula injection.'}),
  }

  async run() {
    const {flags} = await this.parse(ExportCsv)
    const result = await (await this.context.openTrackerFiles()).exportCsv({
      ...(flags.output === undefined ? {} : {output: flags.output}),
      raw: flags.raw,
    })
    this.log(result.path)
    return result
  }
}
