import {BaseCommand} from '../../src/cli/base-command.js'
import {Flags} from '../../src/cli/oclif.js'
import {renderBoardList, renderDeadBoards} from '../../src/cli/render/boards.js'

export default class BoardsList extends BaseCommand {
  static summary = 'List the configured sources with how each fared in the last run that included it'
  static description =
    'Every source of the config, one line per board of an ATS entry (greenhouse:gitlab), enabled or not: ok and ' +
    'the jobs it returned, the error it failed with, dead (N runs) for a board that answered 404 or no jobs run ' +
    'after run, or never run. --dead lists instead the boards that sweeps found dead, and the boards of boards_file ' +
    'entries that runs found dead, which both skip until they are due again.'
  static examples = [
    '<%= config.bin %> boards list',
    '<%= config.bin %> boards list --json',
    '<%= config.bin %> boards list --dead',
  ]
  static enableJsonFlag = true
  static flags = {
    dead: Flags.boolean({
      description: 'The boards sweeps (404 or no jobs) and boards_file runs (404) found dead, resting until due again.',
    }),
  }

  async run() {
    const {flags} = await this.parse(BoardsList)
    if (flags.dead) {
      const {deadBoards} = await import('../../src/app/sweep-wiring.js')
      const dead = await deadBoards(this.context)
      this.log(renderDeadBoards(dead, this.style, this.terminalWidth))
      return {boards: dead, count: dead.length}
    }
    const boards = await (await this.context.openBoards()).list()
    this.log(renderBoardList(boards, this.style, this.terminalWidth))
    return {sources: boards, count: boards.length}
  }
}
