import {BaseCommand} from '../../src/cli/base-command.js'
import {Args, Flags} from '../../src/cli/oclif.js'
import {renderFound} from '../../src/cli/render/boards.js'
import {atsLabels} from '../../src/core/jobs/board-urls.js'

export default class BoardsFind extends BaseCommand {
  static summary = "Find a company's job board: from its careers page URL, or by trying its name on each ATS"
  static description =
    `A careers URL on a known applicant tracking system (${atsLabels().join(', ')}) is recognised without a request. ` +
    'Another URL is read for the boards its page links to or embeds. A name is turned into a few likely slugs (Acme Corp, Inc. gives acmecorp, acme-corp, acme) and each is asked ' +
    'on every ATS a slug is enough for, all at once, one request each, within about ten seconds. Each board that ' +
    'answers with jobs is shown with its number of open jobs, a sample title and its sources entry. --add writes ' +
    'them into the config. Exit status 1 when no board was found.'
  static examples = [
    '<%= config.bin %> boards find "Acme Corp"',
    '<%= config.bin %> boards find https://boards.greenhouse.io/gitlab --add',
    '<%= config.bin %> boards find acme.wd5.myworkdayjobs.com/en-US/Careers',
    '<%= config.bin %> boards find https://acme.com/careers',
    '<%= config.bin %> boards find gitlab --json',
  ]
  static enableJsonFlag = true
  static args = {
    query: Args.string({description: "The company's name, or its careers page URL.", required: true}),
  }
  static flags = {
    add: Flags.boolean({description: 'Write the boards found into sources in the config file (at most 5 at once).'}),
  }

  async run() {
    const {args, flags} = await this.parse(BoardsFind)
    const boards = await this.context.openBoards()
    const result = await boards.find(args.query, {add: flags.add})
    this.log(renderFound(result, this.style, this.context.paths.configFile))
    return result
  }
}
