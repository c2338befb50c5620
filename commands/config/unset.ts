import {ConfigEditor} from '../../src/app/config-editor.js'
import {BaseCommand} from '../../src/cli/base-command.js'
import {Args} from '../../src/cli/oclif.js'

export default class ConfigUnset extends BaseCommand {
  static summary = 'Remove one setting from the config file (the default applies again)'
  static examples = ['<%= config.bin %> config unset search.tags', '<%= config.bin %> config unset sources']
  static args = {key: Args.string({description: 'Dotted key.', required: true})}

  async run() {
    const {args} = await this.parse(ConfigUnset)
    new ConfigEditor().unset(args.key)
    this.log(`Unset ${args.key}.`)
  }
}
