import {BaseCommand} from '../src/cli/base-command.js'
import {Args, Flags} from '../src/cli/oclif.js'
import {renderEdit} from '../src/cli/render/applications.js'
import {trackedRecord} from '../src/core/applications/application.js'
import {definedFields} from '../src/core/defined-fields.js'

export default class Edit extends BaseCommand {
  static summary = 'Correct a tracked application: title, company, location, source, URL, salary lines, referral'
  static description =
    'Changes only the fields given; the history keeps each old and new value. A new URL keeps the history with ' +
    'the application, and is refused when it is tracked as another one. Status and notes change with ' +
    '"jobagent status <id> <status> --notes ...".'
  static examples = [
    '<%= config.bin %> edit 12 --title "Staff Backend Engineer"',
    '<%= config.bin %> edit 12 --url https://example.org/jobs/42 --company "Acme GmbH"',
    '<%= config.bin %> edit 12 --salary-expected "€80k" --salary-offered "€76k + bonus"',
    '<%= config.bin %> edit 12 --location ""',
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
    const update = await this.context.applications.edit(args.application, given)
    this.log(renderEdit(update))
    return trackedRecord(update.current)
  }
}
