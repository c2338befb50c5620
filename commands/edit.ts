import {BaseCommand} from '../src/cli/base-command.js'
import {documentFiles} from '../src/cli/document-flags.js'
import {Args, Flags} from '../src/cli/oclif.js'
import {renderEdit} from '../src/cli/render/applications.js'
import {trackedRecord} from '../src/core/applications/application.js'
import {definedFields} from '../src/core/defined-fields.js'

export default class Edit extends BaseCommand {
  static summary =
    'Correct a tracked application: title, company, location, source, URL, salary lines, referral, documents sent'
  static description =
    'Changes only the fields given; the history keeps each old and new value. A new URL keeps the history with ' +
    'the application, and is refused when it is tracked as another one. Status and notes change with ' +
    '"jobagent status <id> <status> --notes ...".'
  static examples = [
    '<%= config.bin %> edit 12 --title "Staff Backend Engineer"',
    '<%= config.bin %> edit 12 --url https://example.org/jobs/42 --company "Acme GmbH"',
    '<%= config.bin %> edit 12 --salary-expected "€80k" --salary-offered "€76k + bonus"',
    '<%= config.bin %> edit 12 --location ""',
    '<%= config.bin %> edit 12 --cv cv-2026.pdf --keep-copy',
  ]
  static enableJsonFlag = true
  static args = {
    application: Args.string({description: 'Short id (12) or URL of a tracked application.', required: true}),
  }
  static flags = {
    title: Flags.string({description: 'Job title.'}),
    company: Flags.string({description: 'Company name.'}),
    location: Flags.string({description: 'Location ("" clears it).'}),
    source: Flags.string({description: 'Where the job was found.'}),
    url: Flags.string({description: 'The posting URL (http or https).'}),
    'salary-expected': Flags.string({description: 'The salary you ask for, as you write it ("" clears it).'}),
    'salary-offered': Flags.string({description: 'The salary offered, as written ("" clears it).'}),
    referral: Flags.string({description: 'Who referred you ("" clears it).'}),
    cv: Flags.string({description: 'The CV sent: records its path and SHA-256.'}),
    'cover-letter': Flags.string({description: 'The cover letter sent: records its path and SHA-256.'}),
    'keep-copy': Flags.boolean({
      description: 'With --cv or --cover-letter: keep a copy under the data directory (documents/, named by hash).',
    }),
  }

  async run() {
    const {args, flags} = await this.parse(Edit)
    const {
      'salary-expected': salaryExpected,
      'salary-offered': salaryOffered,
      title,
      company,
      location,
      source,
      url,
      referral,
      cv,
      'cover-letter': coverLetter,
      'keep-copy': keepCopy,
    } = flags
    const fields = {
      title,
      company,
      location,
      source,
      url,
      salary_expected: salaryExpected,
      salary_offered: salaryOffered,
      referral,
    }
    const given = definedFields(fields)
    const files = documentFiles({cv, coverLetter, keepCopy})
    // Read before anything changes, so a file that cannot be read leaves the application as it was.
    const documents = files && (await (await this.context.openApplicationDocuments()).read(files, {keepCopy}))
    const tracker = this.context.applications
    if (documents && Object.keys(given).length === 0) {
      const update = await tracker.recordDocuments(args.application, documents)
      this.log(renderEdit(update))
      return trackedRecord(update.current)
    }
    const edited = await tracker.edit(args.application, given)
    const update = documents
      ? {
          previous: edited.previous,
          current: (await tracker.recordDocuments(String(edited.current.id), documents)).current,
        }
      : edited
    this.log(renderEdit(update))
    return trackedRecord(update.current)
  }
}
