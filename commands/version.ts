import {noticeText} from '../src/app/shipped-files.js'
import {Command, Flags} from '../src/cli/oclif.js'

/** `jobagent version`, for those who type it as a word: the same line as `jobagent --version`. */
export default class Version extends Command {
  static summary = 'Print the version of jobagent, the platform and Node.js (the same as --version)'
  static examples = [
    '<%= config.bin %> version',
    '<%= config.bin %> --version',
    '<%= config.bin %> version --verbose',
    '<%= config.bin %> version --json',
  ]
  static flags = {
    verbose: Flags.boolean({
      description: 'Also print the attributions of the code and knowledge jobagent ships (NOTICE)',
    }),
  }
  static enableJsonFlag = true

  async run(): Promise<{name: string; version: string; platform: string; arch: string; node: string}> {
    const {flags} = await this.parse(Version)
    this.log(this.config.userAgent)
    if (flags.verbose) this.log(`\n${noticeText().trimEnd()}`)
    const {name, version, platform, arch} = this.config
    return {name, version, platform, arch, node: process.versions.node}
  }
}
