import {Help} from './oclif.js'

/**
 * oclif's help, except that help for an unknown command (`jobagent help statu`, `jobagent config lst -h`) answers
 * like running it does: the words as typed, the nearest command, exit 2 (the command_not_found hook), instead of
 * oclif's `Command config:lst not found.`
 */
export class JobagentHelp extends Help {
  /** The root help also names the help topic that is no command. */
  formatRoot(): string {
    const guides: [string, string][] = [
      ['sources', 'The job boards a run can search and what each entry of sources needs (jobagent help sources)'],
    ]
    return `${super.formatRoot()}\n\n${this.section('GUIDES', guides)}`
  }

  async showHelp(argv: string[]): Promise<void> {
    if (argv.length === 1 && argv[0] === 'sources') {
      // A topic of its own rather than a command: the boards and what each entry needs, offline.
      const {sourcesHelp} = await import('../app/sources-help.js')
      this.log(sourcesHelp())
      return
    }
    try {
      await super.showHelp(argv)
    } catch (error) {
      const unknown = /^Command (\S+) not found\.$/.exec((error as Error).message)?.[1]
      if (unknown === undefined) throw error
      await this.config.runHook('command_not_found', {id: unknown, argv: []})
      throw error
    }
  }
}
