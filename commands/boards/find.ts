import {BaseCommand} from '../../src/cli/base-command.js'
import {Args, Flags} from '../../src/cli/oclif.js'
import {renderFound} from '../../src/cli/render/boards.js'
import {atsLabels} from '../../src/core/jobs/board-urls.js'

export default class BoardsFind extends BaseCommand {
  static summary =
    "Find a company's job board: in jobagent's directory of boards, from its careers URL, or by asking each ATS"
  static description =
    "A company's name is looked up first in the directory of over 45,000 employers' boards jobagent ships (its company " +
    'names and slugs, case, accents, punctuation and legal forms such as Inc or GmbH ignored), which answers at ' +
    `once, offline. A careers URL on a known applicant tracking system (${atsLabels().join(', ')}) is recognised ` +
    'without a request, and so is a source name such as greenhouse:acme. Another URL is read for the boards its page links to. ' +
    'A name the directory lacks (or any name, with --probe) is turned into a few likely slugs (Acme Corp, Inc. gives ' +
    'acmecorp, acme-corp, acme) and each is asked on every ATS a slug is enough for, all at once, one request each, ' +
    'within about ten seconds. Each board is shown with its link and its sources entry (a probed one with its number ' +
    'of open jobs and a sample title). --add writes them into the config. Exit status 1 when no board was found.'
  static examples = [
    '<%= config.bin %> boards find Airbnb',
    '<%= config.bin %> boards find "Acme Corp" --probe',
    '<%= config.bin %> boards find https://boards.greenhouse.io/gitlab --add',
    '<%= config.bin %> boards find acme.wd5.myworkdayjobs.com/en-US/Careers',
    '<%= config.bin %> boards find greenhouse:airbnb --add',
    '<%= config.bin %> boards find https://acme.com/careers',
    '<%= config.bin %> boards find gitlab --json',
  ]
  static enableJsonFlag = true
  static args = {
    query: Args.string({description: "The company's name, its careers page URL, or a source name.", required: true}),
  }
  static flags = {
    add: Flags.boolean({description: 'Write the boards found into sources in the config file (at most 5 at once).'}),
    probe: Flags.boolean({
      description:
        "Ask the ATSs now which boards a name has, even when the directory knows it (the directory's may have closed).",
    }),
  }

  async run() {
    const {args, flags} = await this.parse(BoardsFind)
    const boards = await this.context.openBoards()
    const result = await boards.find(args.query, {add: flags.add, probe: flags.probe})
    this.log(renderFound(result, this.style, this.context.paths.configFile, this.terminalWidth))
    return result
  }
}
