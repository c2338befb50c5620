import {resolvePaths} from '../../src/app/config.js'
import {ConfigEditor} from '../../src/app/config-editor.js'
import {BaseCommand} from '../../src/cli/base-command.js'

export default class ConfigPath extends BaseCommand {
  static summary = 'Print where the config file and the data live'
  static examples = ['<%= config.bin %> config path', '<%= config.bin %> config path --json']
  static enableJsonFlag = true

  async run() {
    const paths = {config: new ConfigEditor().path, data: resolvePaths().dataDir}
    this.log(paths.config)
    if (this.argv.includes('--verbose')) this.log(`data: ${paths.data}`)
    return paths
  }
}
