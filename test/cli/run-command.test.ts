import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import ConfigGet from '../../commands/config/get.js'
import ConfigSet from '../../commands/config/set.js'
import Interview from '../../commands/interview.js'
import NotifyTest from '../../commands/notify/test.js'
import Status from '../../commands/status.js'
import {BaseCommand} from '../../src/cli/base-command.js'
import {Flags} from '../../src/cli/oclif.js'
import {ROOT, tempDir} from '../helpers/cli.js'
import {runCommand, runCommandLine} from '../helpers/run-command.js'

let first: ReturnType<typeof tempDir>
let second: ReturnType<typeof tempDir>

beforeEach(() => {
  first = tempDir('jobagent-run-command-')
  second = tempDir('jobagent-run-command-')
})

afterEach(() => {
  first.cleanup()
  second.cleanup()
})

describe('runCommand: a command class run in this process as the built CLI runs it', () => {
  it('answers a flag the parser refuses with Error:, Hint: naming the command, and exit 2', async () => {
    const result = await runCommand(Status, ['--status', 'hired'], {home: first.path})
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^Error: Expected --status=hired to be one of: .*\n/)
    expect(result.stderr).toContain('Hint: jobagent status --help shows what it takes\n')
  })

  it('answers a missing required flag with Error:, and a Hint: with the example of the command that uses it', async () => {
    class Greet extends BaseCommand {
      static id = 'greet'
      static examples = ['<%= config.bin %> greet --name Ann']
      static enableJsonFlag = true
      static flags = {name: Flags.string({description: 'Who to greet.', required: true})}
      async run() {
        await this.parse(Greet)
      }
    }
    const result = await runCommand(Greet, [], {home: first.path})
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(
      'Error: missing required flag --name (Who to greet.)\nHint: e.g. jobagent greet --name Ann\n',
    )
    const json = await runCommand(Greet, ['--json'], {home: first.path})
    expect(json.code).toBe(2)
    expect(JSON.parse(json.stdout).error).toMatchObject({
      code: 'validation',
      message: expect.stringContaining('--name'),
    })
    // A command whose flags are needed one or the other says which, with the example.
    const interview = await runCommand(Interview, ['1'], {home: first.path})
    expect(interview.code).toBe(2)
    expect(interview.stderr).toContain('Error: --at or --remove is required')
  })

  it('names every missing required flag of any command, with the first example that gives them all', async () => {
    class Transfer extends BaseCommand {
      static id = 'transfer'
      static examples = [
        '<%= config.bin %> transfer --from a.json --verbose',
        '$ <%= config.bin %> transfer --from a.json --to b.json',
      ]
      static flags = {
        from: Flags.string({description: 'Where from.', required: true}),
        to: Flags.string({description: 'Where to.', required: true}),
        fromage: Flags.string({description: 'A flag whose name begins like another.'}),
      }
      async run() {
        await this.parse(Transfer)
      }
    }
    const none = await runCommand(Transfer, [], {home: first.path})
    expect(none.code).toBe(2)
    expect(none.stderr).toBe(
      'Error: missing required flags --from (Where from.), --to (Where to.)\n' +
        'Hint: e.g. jobagent transfer --from a.json --to b.json\n',
    )
    const one = await runCommand(Transfer, ['--fromage', 'brie', '--to', 'b.json'], {home: first.path})
    expect(one.stderr).toBe(
      'Error: missing required flag --from (Where from.)\nHint: e.g. jobagent transfer --from a.json --verbose\n',
    )
  })

  it('returns the exit code a command recorded after finishing its work, and leaves the process its own', async () => {
    const before = process.exitCode
    const result = await runCommand(NotifyTest, ['json://127.0.0.1:9/unreachable'], {home: first.path})
    expect(result.code, result.stderr).toBe(1)
    expect(result.stdout).toContain('failed')
    expect(process.exitCode).toBe(before)
  })

  it('reads the config and data of the home it is given, with nothing kept from the call before', async () => {
    expect((await runCommand(ConfigSet, ['mode', 'development'], {home: first.path})).code).toBe(0)
    const inFirst = await runCommand(ConfigGet, ['mode'], {home: first.path})
    const inSecond = await runCommand(ConfigGet, ['mode'], {home: second.path})
    expect(inFirst.stdout).toBe('development\n')
    expect(inSecond.stdout).toBe('production\n')
    expect(inSecond.stderr).toContain('the built-in default')
  })

  it('takes variables of the environment it is given, never those of the test process', async () => {
    const result = await runCommand(Status, [], {home: first.path, env: {JOBAGENT_HOME: second.path}})
    expect(result.code, result.stderr).toBe(0)
    const path = await runCommandLine(['config', 'path', 'data'], {home: first.path, env: {JOBAGENT_HOME: second.path}})
    expect(path.stdout.trim().startsWith(second.path)).toBe(true)
  })

  it('gives a command the stdin it is handed, for an argument left out', async () => {
    const url = 'https://example.org/jobs/7'
    expect(
      (await runCommandLine(['apply', url, '--title', 'T', '--company', 'C', '--source', 'manual'], {home: first.path}))
        .code,
    ).toBe(0)
    const result = await runCommand(Status, ['--json'], {home: first.path, stdin: `${url}\n`})
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({url, status: 'applied'})
    const listed = await runCommand(Status, ['--json'], {home: first.path})
    expect(JSON.parse(listed.stdout)).toHaveLength(1)
  })
})

describe('the commands reach the process only through the base command', () => {
  /** React reads NODE_ENV from the process itself, so the dashboard sets it there. */
  const ALLOWED = new Set(["commands/ui.ts: process.env.NODE_ENV ??= 'production'"])

  it('no command writes to process.stdout or stderr, reads process.env or stdin, or sets the exit code itself', () => {
    const uses = commandFiles()
      .flatMap((file) =>
        readFileSync(join(ROOT, file), 'utf8')
          .split('\n')
          .filter((line) => /\bprocess\.(stdout|stderr|stdin|env|exit|exitCode)\b|\bconsole\./.test(line))
          .map((line) => `${file}: ${line.trim()}`),
      )
      .filter((use) => !ALLOWED.has(use))
    expect(uses).toEqual([])
  })
})

function commandFiles(dir = 'commands'): string[] {
  return readdirSync(join(ROOT, dir), {withFileTypes: true}).flatMap((entry) =>
    entry.isDirectory() ? commandFiles(`${dir}/${entry.name}`) : [`${dir}/${entry.name}`],
  )
}
