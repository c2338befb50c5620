import {BaseCommand} from '../src/cli/base-command.js'
import {documentFiles} from '../src/cli/document-flags.js'
import {Args, Flags} from '../src/cli/oclif.js'
import {renderTracked} from '../src/cli/render/applications.js'
import {APPLICATION_STATUSES, trackedRecord} from '../src/core/applications/application.js'
import {ValidationError} from '../src/core/errors.js'

const FIELD_FLAGS = new Set(['title', 'company', 'location', 'source'])

/** A field the posting URL needs and the flags did not give, said as the flags that give it. */
function withFlagHint(error: unknown): unknown {
  if (!(error instanceof ValidationError) || error.hint !== undefined) return error
  const missing = error.details.map(({field}) => field).filter((field) => field !== undefined && FIELD_FLAGS.has(field))
  if (missing.length === 0) return error
  const flags = missing.map((field) => (field === 'source' ? '--source (for example manual)' : `--${field}`))
  return new ValidationError(error.message, {
    details: error.details,
    hint: `give ${flags.join(', ')}; or track a job of the last run by its id: jobagent apply <id> (ids: jobagent jobs)`,
  })
}

export default class Apply extends BaseCommand {
  static summary = 'Track an application, by URL or by the id of a job found by the last run'
  static description =
    'Records an application with status "applied" (or --status) and applied_date set to now. ' +
    `Given a job id from "jobagent jobs", or the link of a job jobagent has stored (whatever tracking parameters it ` +
    "carries: utm_*, gh_src, ref...), the job's title, company, location and source are used (flags override); " +
    'the link is kept as given. A job tracked already is refused with its id. Any other link needs --title, ' +
    '--company and --source.'
  static examples = [
    '<%= config.bin %> apply 17',
    '<%= config.bin %> apply 17 --status saved --referral "Ana Silva"',
    '<%= config.bin %> apply "https://boards.greenhouse.io/acme/jobs/123?gh_src=abc"',
    '<%= config.bin %> apply 17 --cv cv-2026.pdf --cover-letter acme-letter.pdf --keep-copy',
    '<%= config.bin %> apply https://example.org/jobs/42 --title "Backend Engineer" --company Acme --location Berlin --source remoteok',
    '<%= config.bin %> apply https://example.org/jobs/43 --title "SRE" --company Initech --source manual --status saved --notes "apply by Friday"',
  ]
  static enableJsonFlag = true
  static args = {
    target: Args.string({
      description: 'A job id from "jobagent jobs", or the posting URL (http or https).',
      required: true,
    }),
  }
  static flags = {
    title: Flags.string({description: 'Job title.'}),
    company: Flags.string({description: 'Company name.'}),
    location: Flags.string({description: 'Location (may be empty).'}),
    source: Flags.string({description: 'Where the job was found, e.g. remoteok or manual.'}),
    status: Flags.string({description: 'Initial status.', options: [...APPLICATION_STATUSES], default: 'applied'}),
    notes: Flags.string({description: 'Free-text notes.', default: ''}),
    referral: Flags.string({description: 'Who referred you, e.g. "Ana Silva (ex-colleague)".'}),
    cv: Flags.string({description: 'The CV sent: records its path and SHA-256.'}),
    'cover-letter': Flags.string({description: 'The cover letter sent: records its path and SHA-256.'}),
    'keep-copy': Flags.boolean({
      description: 'With --cv or --cover-letter: keep a copy under the data directory (documents/, named by hash).',
    }),
  }

  async run() {
    const {args, flags} = await this.parse(Apply)
    const {
      json: _json,
      verbose: _verbose,
      quiet: _quiet,
      cv,
      'cover-letter': coverLetter,
      'keep-copy': keepCopy,
      ...fields
    } = flags
    const files = documentFiles({cv, coverLetter, keepCopy})
    // Read before anything is tracked, so a file that cannot be read leaves the tracker as it was.
    const documents = files && (await (await this.context.openApplicationDocuments()).read(files, {keepCopy}))
    const target = /^#?\d+$/.test(args.target) ? {jobId: Number(args.target.replace('#', ''))} : {url: args.target}
    const tracked = await (await this.context.openJobCatalog()).trackLink(target, fields).catch((error: unknown) => {
      throw withFlagHint(error)
    })
    const application = documents
      ? (await this.context.applications.recordDocuments(String(tracked.id), documents)).current
      : tracked
    this.log(renderTracked(application))
    return trackedRecord(application)
  }
}
