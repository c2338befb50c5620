import {Command} from '../src/cli/oclif.js'

/** `jobagent version`, for those who type it as a word: the same line as `jobagent --version`. */
export default class Version extends Command {
  static summary = 'Print the version of jobagent, the platform and Node.js (the same as --version)'
  static examples = ['<%= config.bin %> version', '<%= config.bin %> --version']

  async run(): Promise<void> {
    this.log(this.config.userAgent)
  }
}
