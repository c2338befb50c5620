import {BaseCommand} from '../../src/cli/base-command.js'
import {renderBoardList} from '../../src/cli/render/boards.js'

export default class BoardsList extends BaseCommand {
  static summary = 'List the configured sources with how each fared in the last run that included it'
  static description =
    'Every source of the config, one line per board of an ATS entry (greenhouse:gitlab), enabled or not: ok and ' +
    'the jobs it returned, the error it failed with, dead (N runs) for a board that answered 404 or no jobs run ' +
    'after run, or never run.'
  static examples = ['<%= config.bin %> boards list', '<%= config.bin %> boards list --json']
  static enableJsonFlag = true

  async run() {
    await this.parse(BoardsList)
    const boards = await (await this.context.openBoards()).list()
    this.log(renderBoardList(boards, this.style))
    return {sources: boards, count: boards.length}
  }
}
