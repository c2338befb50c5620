import {ConfigEditor} from '../src/app/config-editor.js'
import {BaseCommand} from '../src/cli/base-command.js'
import {Flags} from '../src/cli/oclif.js'
import {askProfile, renderProfile} from '../src/cli/profile-prompt.js'

export default class Profile extends BaseCommand {
  static summary = 'Say what jobs you want: asks a few questions and writes the profile that scores jobs'
  static description =
    'On a terminal, asks for the job titles you want, your skills, the words that rule a job out, your level, where ' +
    'you live and where you will work, and writes the answers to the config file (profile). Enter keeps an answer, ' +
    '"-" clears it. Off a terminal, or with --show, prints the profile. --forget-verdicts forgets every like and ' +
    'dismissal, after asking on a terminal (elsewhere it needs --yes). Each key can also be set alone: jobagent config set profile.roles "sre,devops engineer".'
  static examples = [
    '<%= config.bin %> profile',
    '<%= config.bin %> profile --show',
    '<%= config.bin %> profile --json',
    '<%= config.bin %> profile --forget-verdicts',
    '<%= config.bin %> profile --forget-verdicts --yes',
    '<%= config.bin %> config set profile.home Netherlands',
  ]
  static enableJsonFlag = true
  static flags = {
    show: Flags.boolean({description: 'Print the profile; ask nothing.', exclusive: ['ask', 'forget-verdicts']}),
    ask: Flags.boolean({
      description: 'Ask the questions even when the input is not a terminal (one answer per line).',
      exclusive: ['show', 'forget-verdicts'],
    }),
    'forget-verdicts': Flags.boolean({
      description: 'Forget every like and dismissal of jobs.',
      exclusive: ['ask', 'show'],
    }),
    yes: Flags.boolean({
      char: 'y',
      description: 'With --forget-verdicts: forget without asking (needed off a terminal).',
      dependsOn: ['forget-verdicts'],
    }),
  }

  async run() {
    const {flags} = await this.parse(Profile)
    if (flags['forget-verdicts']) {
      await this.confirm({
        question: 'Forget every like and dismissal? Jobs are then ranked by the profile alone.',
        refusal: 'profile --forget-verdicts forgets every like and dismissal',
        withYes: 'jobagent profile --forget-verdicts --yes',
        yes: flags.yes,
      })
      const forgotten = await (await this.context.openJobCatalog()).forgetVerdicts()
      this.log(`Forgot ${forgotten} like(s) and dismissal(s); the ranking is the profile's alone again.`)
      return {forgotten}
    }
    const current = this.context.config.profile
    const asking = flags.ask || (!flags.show && !this.jsonEnabled() && this.io.stdin.isTTY === true)
    if (!asking) {
      this.log(renderProfile(current))
      // Shown without asking, off a terminal: an empty profile says how to write one.
      if (!flags.show && current.roles.length === 0 && Object.keys(current.skills).length === 0) {
        this.log('No roles or skills yet: run jobagent profile on a terminal, or answer its questions with --ask')
      }
      return current
    }
    const profile = await askProfile(current, {
      input: this.io.stdin,
      output: this.io.stdout,
      retry: this.io.stdin.isTTY === true,
    })
    const editor = new ConfigEditor(this.env)
    editor.set('profile', JSON.stringify(profile))
    this.log(`\n${renderProfile(profile)}\nSaved to ${editor.path}. See the jobs it ranks first with: jobagent jobs`)
    return profile
  }
}
