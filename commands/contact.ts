import {BaseCommand} from '../src/cli/base-command.js'
import {Args, Flags} from '../src/cli/oclif.js'
import {renderContactChange} from '../src/cli/render/applications.js'
import {ValidationError} from '../src/core/errors.js'

export default class Contact extends BaseCommand {
  static summary = 'Add a contact to a tracked application, or remove one'
  static description =
    'A contact is a name with, optionally, a role, an email address or a web link, and notes (which may span ' +
    'lines). "jobagent status <id>" lists the contacts with their numbers, which --remove takes. Adding and ' +
    'removing are kept in the history.'
  static examples = [
    '<%= config.bin %> contact 12 --name "Ann Lee" --role recruiter --email ann@example.org',
    '<%= config.bin %> contact 12 --name "Bo Chen" --link https://www.linkedin.com/in/bochen --notes "referred me"',
    '<%= config.bin %> contact 12 --remove 3',
  ]
  static enableJsonFlag = true
  static args = {
    application: Args.string({description: 'Short id (12) or URL of a tracked application.', required: true}),
  }
  static flags = {
    name: Flags.string({description: 'The person’s name (required to add).', exclusive: ['remove']}),
    role: Flags.string({description: 'Their role: recruiter, hiring manager, referrer...', dependsOn: ['name']}),
    email: Flags.string({description: 'Their email address.', exclusive: ['link'], dependsOn: ['name']}),
    link: Flags.string({description: 'A web link to reach them (http or https).', dependsOn: ['name']}),
    notes: Flags.string({description: 'Notes about them; may span lines.', dependsOn: ['name']}),
    remove: Flags.integer({description: 'Remove the contact with this number (see jobagent status <id>).', min: 1}),
  }

  async run() {
    const {args, flags} = await this.parse(Contact)
    const contacts = this.context.contacts
    if (flags.remove !== undefined) {
      const removed = await contacts.remove(args.application, flags.remove)
      this.log(renderContactChange(removed, 'removed'))
      return removed
    }
    if (flags.name === undefined) {
      throw new ValidationError('--name or --remove is required', {
        hint: 'add one with: jobagent contact <id> --name "Ann Lee" --email ann@example.org',
      })
    }
    const {name, role, email, link, notes} = flags
    const given = Object.entries({name, role, email, link, notes}).filter(([, value]) => value !== undefined)
    const added = await contacts.add(args.application, Object.fromEntries(given))
    this.log(renderContactChange(added, 'added'))
    return added
  }
}
