import {BaseCommand} from '../src/cli/base-command.js'
import {Args, Flags} from '../src/cli/oclif.js'
import {renderImport} from '../src/cli/render/applications.js'
import {TRACKER_EXPORT_FORMATS, type TrackerExportFormat} from '../src/core/applications/tracker-exports.js'

export default class Import extends BaseCommand {
  static summary = 'Import applications from a JSON or CSV file, or from a Huntr or Teal CSV export'
  static description =
    'Reads a JSON array of application records (what "jobagent status --json" prints) or a CSV with ' +
    "the export's columns; with --from huntr or --from teal, that tracker's CSV export (columns in any order, others " +
    'ignored; source is "huntr" or "teal"). All or nothing: if any row is invalid, the rows are listed with their ' +
    'numbers and nothing is written. Applications already tracked are reported and left unchanged unless --update ' +
    'is given. The file may be UTF-8, UTF-16 with a byte order mark, or Windows-1252 (read when the bytes are not ' +
    'UTF-8).\n\n' +
    'Huntr columns: Employer -> company, Job Title -> title, List -> status, URL -> url, Location -> location, ' +
    'Date Saved -> applied_date, Notes -> notes, Salary -> salary_expected.\n' +
    'Teal columns: Company Name, Job Title, Status, Job URL, Location, Salary, mapped alike; applied_date is the ' +
    'import time.\n\n' +
    'Stages (case ignored): Wishlist, Bookmarked -> saved; Applied, Applying -> applied; Interview, Interviewing, ' +
    'Phone Screen, Screening, Onsite, Technical Interview, Final Interview and any stage naming an interview -> ' +
    'interviewing; Offer, Offered, Offer Received, Negotiating and any stage beginning with "Offer" -> offer; ' +
    'Accepted -> accepted; Rejected, Not Selected -> rejected; I Withdrew, Withdrawn -> withdrawn; No Response, ' +
    'Ghosted -> ghosted. Any other stage makes its row invalid.'
  static examples = [
    '<%= config.bin %> import applications.json',
    '<%= config.bin %> import applications.csv --update',
    '<%= config.bin %> import --from huntr huntr-export.csv',
    '<%= config.bin %> import --from teal teal-jobs.csv --json',
  ]
  static enableJsonFlag = true
  static args = {file: Args.string({description: 'A .json or .csv file.', required: true})}
  static flags = {
    from: Flags.string({
      description: "The file's format: jobagent's own JSON/CSV, or another tracker's CSV export.",
      options: ['jobagent', ...TRACKER_EXPORT_FORMATS],
      default: 'jobagent',
    }),
    update: Flags.boolean({description: 'Overwrite applications that are already tracked (history is kept).'}),
  }

  async run() {
    const {args, flags} = await this.parse(Import)
    const from = flags.from === 'jobagent' ? undefined : (flags.from as TrackerExportFormat)
    const files = await this.context.openTrackerFiles()
    const outcome = await files.importFile(args.file, {update: flags.update, ...(from ? {from} : {})})
    this.log(renderImport(outcome))
    return outcome
  }
}
