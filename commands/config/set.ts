import {problemsLeftWarning} from '../../src/app/config.js'
import {ConfigEditor} from '../../src/app/config-editor.js'
import {BaseCommand} from '../../src/cli/base-command.js'
import {Args} from '../../src/cli/oclif.js'

export default class ConfigSet extends BaseCommand {
  static summary = 'Change one setting in the config file'
  static description =
    'The value is read as JSON when it parses (true, 20, ["a","b"]) and as text otherwise; a value that starts with { or [ must be valid JSON. Text for a list (search.tags, notify.urls, ...) is split at commas; a blank entry is refused, as in JSON. Invalid values are refused with the key and the reason; the file is left as it was.'
  static examples = [
    '<%= config.bin %> config set mode development',
    '<%= config.bin %> config set search.tags typescript,node',
    `<%= config.bin %> config set search.company_block_list '["Acme, Inc."]'`,
    `<%= config.bin %> config set notify.urls '["ntfy://my-jobs"]'`,
    '<%= config.bin %> config set server.port 9090',
  ]
  static args = {
    key: Args.string({description: 'Dotted key, e.g. search.remote_only.', required: true}),
    value: Args.string({description: 'New value (JSON or text).', required: true}),
  }

  async run() {
    const {args} = await this.parse(ConfigSet)
    const editor = new ConfigEditor(this.env)
    const {problems: remaining} = editor.set(args.key, args.value)
    this.log(`Set ${args.key}.`)
    if (remaining.length === 0) return
    this.io.stderr.write(problemsLeftWarning(editor.path, remaining))
  }
}
