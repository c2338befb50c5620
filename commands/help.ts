import {Args, Command, loadHelpClass} from '../src/cli/oclif.js'

/**
 * `jobagent help [COMMAND]`. A command of our own rather than @oclif/plugin-help: loading a plugin costs every
 * command a few milliseconds at start-up, and this is all the plugin's help command does.
 */
export default class Help extends Command {
  static summary = 'Show help for jobagent or one of its commands'
  static examples = ['<%= config.bin %> help', '<%= config.bin %> help status', '<%= config.bin %> help config set']
  static args = {command: Args.string({description: 'Command to show help for (words, e.g. "config set").'})}
  static strict = false

  async run(): Promise<void> {
    const {argv} = await this.parse(Help)
    const HelpClass = await loadHelpClass(this.config)
    await new HelpClass(this.config).showHelp(argv as string[])
  }
}
