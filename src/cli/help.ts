import {Help} from './oclif.js'

/**
 * oclif's help, except that help for an unknown command (`jobagent help statu`, `jobagent config lst -h`) answers
 * like running it does: the words as typed, the nearest command, exit 2 (the command_not_found hook), instead of
 * oclif's `Command config:lst not found.`
 */
export class JobagentHelp extends Help {
  async showHelp(argv: string[]): Promise<void> {
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
