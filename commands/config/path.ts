import {resolvePaths} from '../../src/app/config.js'
import {ConfigEditor} from '../../src/app/config-editor.js'
import {BaseCommand} from '../../src/cli/base-command.js'
import {Args} from '../../src/cli/oclif.js'

export default class ConfigPath extends BaseCommand {
  static summary = 'Print where the config file and the data live'
  static description =
    'Without an argument, prints both locations with a label. With "config" or "data", prints only that path, ' +
    'for scripts.'
  static examples = [
    '<%= config.bin %> config path',
    '$ "$EDITOR" "$(<%= config.bin %> config path config)"',
    '$ ls "$(<%= config.bin %> config path data)"',
    '<%= config.bin %> config path --json',
  ]
  static enableJsonFlag = true
  static args = {
    which: Args.string({description: 'Print only this path.', options: ['config', 'data']}),
  }

  async run() {
    const {args} = await this.parse(ConfigPath)
    const paths = {config: new ConfigEditor(this.env).path, data: resolvePaths(this.env).dataDir}
    if (args.which === 'config' || args.which === 'data') this.log(paths[args.which])
    else this.log(`config file  ${paths.config}\ndata dir     ${paths.data}`)
    return paths
  }
}
