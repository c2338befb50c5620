import {readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {format, stripVTControlCharacters} from 'node:util'
import {Config} from '@oclif/core/config'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {JobagentHelp} from '../../src/cli/help.js'
import {ROOT, runCli, tempDir} from '../helpers/cli.js'

let home: ReturnType<typeof tempDir>
const cli = (...args: string[]) => runCli(args, {home: home.path})

/**
 * Every built command, as the words a user types (`config list`). `help` is left out: oclif reads the word
 * `help` in any position as a request for help, so `jobagent help --help` shows the root help by design.
 */
const commands = readdirSync(join(ROOT, 'dist/commands'), {recursive: true, encoding: 'utf8'})
  .filter((file) => file.endsWith('.js') && file !== 'help.js')
  .map((file) => file.slice(0, -'.js'.length).split('/').join(' '))
  .sort()

/**
 * What `jobagent <command> --help` prints, made in this process by the CLI's help class from the same config and
 * manifest: one process per command cost a Node start and oclif's load each.
 */
async function helpOf(words: readonly string[]): Promise<string> {
  const config = await Config.load(ROOT)
  let text = ''
  const help = new (class extends JobagentHelp {
    protected log(...args: string[]): void {
      text += `${format(...args)}\n`
    }
  })(config, config.pjson.oclif.helpOptions ?? config.pjson.helpOptions)
  await help.showHelp([...words, '--help'])
  return stripVTControlCharacters(text)
}

beforeEach(() => {
  home = tempDir('jobagent-e2e-cli-')
})

afterEach(() => {
  home.cleanup()
})

describe('the jobagent executable', () => {
  it('prints its version', async () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version
    const result = await cli('--version')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(`jobagent/${version}`)
  })

  it('prints the attributions of its knowledge with --version --verbose, and only the version without it', async () => {
    const plain = await cli('--version')
    expect(plain.stdout).not.toContain('O*NET')
    const verbose = await cli('--version', '--verbose')
    expect(verbose.code).toBe(0)
    expect(verbose.stdout).toContain('jobagent/')
    expect(verbose.stdout).toContain('O*NET 29.3 Database by the U.S. Department of Labor')
    expect(verbose.stdout).toContain('CC BY 4.0')
    expect((await cli('version', '--verbose')).stdout).toBe(verbose.stdout)
  })

  it('shows the help of a command with jobagent help <command>, and the root help without one', async () => {
    const one = await cli('help', 'config', 'set')
    expect(one.code).toBe(0)
    expect(one.stdout).toContain('$ jobagent config set KEY VALUE')
    const root = await cli('help')
    expect(root.code).toBe(0)
    expect(root.stdout).toMatch(/COMMANDS[\s\S]*status/)
  })

  it('explains the sources list offline with jobagent help sources, named by the root help', async () => {
    const topic = await cli('help', 'sources')
    expect(topic.code).toBe(0)
    expect(topic.stderr).toBe('')
    expect(topic.stdout).toContain("$ jobagent config set sources '[")
    expect(topic.stdout).toMatch(/^ {2}greenhouse +boards: \["<slug>", \.\.\.\]$/m)
    expect(topic.stdout).toMatch(/^ {2}adzuna +country, app_id, app_key$/m)
    expect(topic.stdout).toMatch(/^ {2}file +path$/m)
    expect(topic.stdout).toMatch(/^ {2}remoteok +-$/m)
    const root = await cli('help')
    expect(root.stdout).toMatch(/GUIDES\n {2}sources .*\n.*jobagent help sources/)
  })

  it('prints with --help what its help class makes', async () => {
    const result = await cli('config', 'set', '--help')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('EXAMPLES')
    expect(result.stdout).toBe(await helpOf(['config', 'set']))
  })

  it('shows at least two examples in the help of every command', async () => {
    const withoutExamples: string[] = []
    for (const command of commands) {
      const help = await helpOf(command.split(' ')).catch((error: Error) => `failed: ${error.message}`)
      const examples = help.match(/^\s+\$ jobagent /gm) ?? []
      if (!help.includes('EXAMPLES') || examples.length < 2) withoutExamples.push(command)
    }
    expect(withoutExamples).toEqual([])
  })

  it.each(['abc', '0', '1.5'])('exits 2 for an argument of the wrong kind (jobs %s), not as a bug', async (id) => {
    const result = await cli('jobs', '--', id)
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('Error: invalid argument: Expected an integer')
    expect(result.stderr).toContain('Hint: jobagent jobs --help shows what it takes')
    expect(result.stderr).not.toContain('This is a bug')
  })

  it('exits 2 with the reason for an unknown flag or a missing argument', async () => {
    const flag = await cli('status', '--colour')
    expect(flag.code).toBe(2)
    expect(flag.stderr).toContain('--colour')
    expect(flag.stderr).not.toContain('    at ')
    const arg = await cli('import')
    expect(arg.code).toBe(2)
    expect(arg.stderr).toContain('file')
  })

  it.each([
    [['runs', '--limit', '0', '--json'], 'Parsing --limit: Expected an integer greater than or equal to 1', 'runs'],
    [['jobs', '--bogus', '--json'], 'Nonexistent flag: --bogus', 'jobs'],
    [['status', '--status', 'bogus', '--json'], 'Expected --status=bogus to be one of: saved', 'status'],
    [['apply', '--json'], 'missing <target>: A job id', 'apply'],
    [
      ['contact', '2', '--email', 'a@b.c', '--json'],
      'All of the following must be provided when using --email: --name',
      'contact',
    ],
    [['jobs', '--explain', '--json'], '--explain goes with the id of a job', 'jobs'],
  ])('answers a usage error with --json by the error document and exit 2 (%j)', async (args, message, command) => {
    const result = await cli(...args)
    expect(result.code).toBe(2)
    const document = JSON.parse(result.stdout)
    expect(Object.keys(document.error)).toEqual(['code', 'message', 'details'])
    expect(document.error.code).toBe('validation')
    expect(document.error.message).toContain(message)
    expect(result.stderr).toContain(`Error: ${message}`)
    expect(result.stderr).toMatch(new RegExp(`Hint: .*jobagent ${command}`))
  })

  it('refuses a corrupt jobagent.db with exit 1, naming it and leaving every byte as it was', async () => {
    const file = join(home.path, 'jobagent.db')
    const content = 'my notes, definitely not SQLite\n'.repeat(200)
    writeFileSync(file, content)
    for (const args of [
      ['status'],
      ['apply', 'https://example.org/1', '--title', 'T', '--company', 'C', '--source', 's'],
    ]) {
      const result = await cli(...args)
      expect(result.code, result.stderr).toBe(1)
      expect(result.stderr).toContain(`Error: ${file} is not a valid jobagent database`)
      expect(result.stderr).toContain('Hint: restore it from a backup')
      expect(result.stderr).not.toContain('    at ')
    }
    expect(readFileSync(file, 'utf8')).toBe(content)
    expect(readdirSync(home.path).filter((name) => name.startsWith('jobagent.db'))).toEqual(['jobagent.db'])
  })

  it.each([
    ['--verbose', ['--verbose'], {}],
    ['DEBUG=jobagent*', [], {DEBUG: 'jobagent*'}],
  ])('shows the cause of an error with %s, and only then', async (_how, flags, env) => {
    writeFileSync(join(home.path, 'jobagent.db'), 'not SQLite\n'.repeat(200))
    expect((await cli('status')).stderr).not.toContain('Cause:')
    const result = await runCli(['status', ...flags], {home: home.path, env})
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('Cause: SqliteError: file is not a database')
  })
})
