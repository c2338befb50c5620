import {ConfigEditor} from '../../src/app/config-editor.js'
import {BaseCommand} from '../../src/cli/base-command.js'
import {Args, Flags} from '../../src/cli/oclif.js'

export default class ConfigGet extends BaseCommand {
  static summary = 'Print one setting: its value in the config file, else the built-in default in force'
  static description =
    'The value goes to stdout alone, for scripts; when the file does not set the key, a note on stderr says the value is the built-in default.'
  static examples = ['<%= config.bin %> config get mode', '<%= config.bin %> config get search.tags']
  static enableJsonFlag = true
  static args = {
    key: Args.string({
      description: 'Dotted key, e.g. search.tags; a list entry by its position, e.g. sources[0].type.',
      required: true,
    }),
  }
  static flags = {'show-secrets': Flags.boolean({description: 'Print secrets in full.'})}

  async run() {
    const {args, flags} = await this.parse(ConfigGet)
    const editor = new ConfigEditor(this.env)
    const {value, isDefault} = editor.get(args.key, {showSecrets: flags['show-secrets']})
    // oclif prints a command's result under --json only when it is truthy; false and 0 are values too.
    if (this.jsonEnabled()) {
      this.logJson(value)
      return
    }
    this.log(typeof value === 'string' ? value : JSON.stringify(value, null, 2))
    if (isDefault && !flags.quiet)
      this.io.stderr.write(`(the built-in default; ${args.key} is not set in ${editor.path})\n`)
  }
}
