import {BaseCommand} from '../../src/cli/base-command.js'
import {Flags} from '../../src/cli/oclif.js'
import {renderDirectory} from '../../src/cli/render/board-directory.js'

export default class BoardsDirectory extends BaseCommand {
  static summary = "List the employers' boards in jobagent's directory: by ATS, or those of a company"
  static description =
    "jobagent ships a directory of over 45,000 employers' boards on the 13 ATSs it reads, gathered from three MIT-licensed " +
    'lists (NOTICE). Without a filter it shows how many boards each ATS has. --ats lists the boards of one ATS; ' +
    '--search those whose company or slug holds the text (case, accents, punctuation and legal forms such as Inc ' +
    'ignored), exact names first. Each board is shown with its ATS, company, public link and the sources entry that ' +
    'searches it; add one with jobagent boards find <SOURCE> --add. At most --limit boards are listed (default 50), ' +
    'and a last line says how many more matched. A board may have closed since the directory was made.'
  static examples = [
    '<%= config.bin %> boards directory',
    '<%= config.bin %> boards directory --ats pinpoint',
    '<%= config.bin %> boards directory --search "acme corp"',
    '<%= config.bin %> boards directory --ats greenhouse --search health --limit 200',
    '<%= config.bin %> boards directory --search airbnb --json',
  ]
  static enableJsonFlag = true
  static flags = {
    ats: Flags.string({description: 'Only the boards on this ATS (greenhouse, lever, workday, ...).'}),
    search: Flags.string({description: 'Only the boards whose company or slug holds this text.'}),
    limit: Flags.integer({description: 'List at most this many boards.', default: 50, min: 1}),
  }

  async run() {
    const {flags} = await this.parse(BoardsDirectory)
    const boards = await this.context.openBoards()
    const listing = await boards.directory({ats: flags.ats, search: flags.search, limit: flags.limit})
    const filtered = flags.ats !== undefined || (flags.search ?? '').trim() !== ''
    this.log(renderDirectory(listing, this.style, {filtered, width: this.terminalWidth}))
    return listing
  }
}
