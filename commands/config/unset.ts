import {problemsLeftWarning} from '../../src/app/config.js'
import {ConfigEditor} from '../../src/app/config-editor.js'
import {BaseCommand} from '../../src/cli/base-command.js'
import {Args} from '../../src/cli/oclif.js'

export default class ConfigUnset extends BaseCommand {
  static summary = 'Remove one setting from the config file (the default applies again)'
  static description =
    'Also removes a key that is in the file but not a known setting (a typo such as "mdoe"), so a file that fails to load can be repaired key by key.'
  static examples = ['<%= config.bin %> config unset search.tags', '<%= config.bin %> config unset sources']
  static args = {key: Args.string({description: 'Dotted key.', required: true})}

  async run() {
    const {args} = await this.parse(ConfigUnset)
    const editor = new ConfigEditor(this.env)
    const {removed, problems: remaining} = editor.unset(args.key)
    this.log(removed ? `Unset ${args.key}.` : `${args.key} is not set in ${editor.path}; nothing changed.`)
    if (remaining.length === 0) return
    this.io.stderr.write(problemsLeftWarning(editor.path, remaining))
  }
}
