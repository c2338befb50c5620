import {ConfigEditor} from '../../src/app/config-editor.js'
import {BaseCommand} from '../../src/cli/base-command.js'
import {Flags} from '../../src/cli/oclif.js'

export default class ConfigList extends BaseCommand {
  static summary = 'Show the settings stored in the config file'
  static description = 'Secrets (notification URLs, credentials in URLs) are masked unless --show-secrets is given.'
  static examples = ['<%= config.bin %> config list', '<%= config.bin %> config list --json']
  static enableJsonFlag = true
  static flags = {'show-secrets': Flags.boolean({description: 'Print secrets in full.'})}

  async run() {
    const {flags} = await this.parse(ConfigList)
    const settings = new ConfigEditor(this.env).list({showSecrets: flags['show-secrets']})
    this.log(
      Object.keys(settings).length === 0 ? '(no settings; built-in defaults apply)' : JSON.stringify(settings, null, 2),
    )
    return settings
  }
}
