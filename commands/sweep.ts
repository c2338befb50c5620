import {preferSmallHeap} from '../src/app/batch-heap.js'
import {BaseCommand} from '../src/cli/base-command.js'
import {Flags} from '../src/cli/oclif.js'
import {createSweepProgress} from '../src/cli/progress.js'
import {renderSweep} from '../src/cli/render/sweep.js'

export default class Sweep extends BaseCommand {
  static summary = "Search every employer's board of a directory for jobs that fit the profile"
  static description =
    "Asks each board of the directory (the one shipped with jobagent, unless --directory or sweep.directory names another) for its list only, picks the candidates by the profile's roles, skills, " +
    'places and level, reads their descriptions and stores the ranked matches as a run of kind sweep, which ' +
    '`jobagent jobs` lists. Politely: limits per ATS and overall, Retry-After and back-off; incrementally: an ' +
    'unchanged board costs one conditional request, a dead one rests; resumably: a stopped sweep continues where it ' +
    'stopped. A sweep within sweep.interval_hours of the last one is refused (exit 1) unless --force.'
  static examples = [
    '<%= config.bin %> sweep',
    '<%= config.bin %> sweep --ats greenhouse --limit 500',
    '<%= config.bin %> sweep --directory boards.jsonl',
    '<%= config.bin %> sweep --directory boards.jsonl --ats greenhouse,lever --limit 200',
    '<%= config.bin %> sweep --directory boards.jsonl --companies my-companies.txt --force',
    '<%= config.bin %> sweep --directory boards.jsonl --follow --min-score 70 --json',
  ]
  static enableJsonFlag = true
  static flags = {
    directory: Flags.string({
      description:
        'The directory file: one {"ats", "slug", "company"} object a line, or of the shipped directory\'s form; the shipped one without it.',
    }),
    ats: Flags.string({description: 'Only the boards of these ATSs, comma separated.', multiple: true, delimiter: ','}),
    companies: Flags.string({description: 'Only the companies of this file, one name or slug a line.'}),
    limit: Flags.integer({description: 'At most this many boards, in the directory order.', min: 1}),
    force: Flags.boolean({description: 'Sweep even within sweep.interval_hours of the last sweep.'}),
    restart: Flags.boolean({description: 'Start over instead of continuing a sweep that was stopped.'}),
    follow: Flags.boolean({
      description:
        'Follow the boards with matches in the daily run: added to followed-<ats>.txt beside the config, a boards_file entry of sources.',
    }),
    'min-score': Flags.integer({description: 'With --follow: the lowest score a match needs.', min: 0, max: 100}),
  }

  async run() {
    preferSmallHeap()
    const {flags} = await this.parse(Sweep)
    const progress = flags.quiet ? null : createSweepProgress(this.io.stderr)
    this.logSink.redirect(progress)
    const {runSweep} = await import('../src/app/sweep-wiring.js')
    const result = await runSweep(this.context, {
      directory: flags.directory,
      ats: flags.ats,
      companies: flags.companies,
      limit: flags.limit,
      force: flags.force,
      restart: flags.restart,
      follow: flags.follow,
      minScore: flags['min-score'],
      ...(progress ? {onStart: progress.onStart, onProgress: progress.onProgress, onRanking: progress.onRanking} : {}),
    }).finally(() => {
      progress?.stop()
      this.logSink.redirect(null)
    })
    if (result.status === 'interrupted') this.setExitCode(130)
    if (this.jsonEnabled()) return result
    this.log(renderSweep(result))
  }
}
