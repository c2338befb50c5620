import {ConfigEditor} from '../../src/app/config-editor.js'
import {BaseCommand} from '../../src/cli/base-command.js'
import {Args, Flags} from '../../src/cli/oclif.js'

export default class ConfigGet extends BaseCommand {
  static summary = 'Print one setting from the config file'
  static examples = ['<%= config.bin %> config get mode', '<%= config.bin %> config get search.tags']
  static enableJsonFlag = true
  static args = {key: Args.string({description: 'Dotted key, e.g. search.tags.', required: true})}
  static flags = {'show-secrets': Flags.boolean({description: 'Print secrets in full.'})}

  async run() {
    const {args, flags} = await this.parse(ConfigGet)
    const value = new ConfigEditor().get(args.key, {showSecrets: flags['show-secrets']})
    this.log(typeof value === 'string' ? value : JSON.stringify(value, null, 2))
    return value
  }
}
