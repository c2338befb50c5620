import {spawnSync} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {runCli, tempDir} from '../helpers/cli.js'

let home: ReturnType<typeof tempDir>
const cli = (...args: string[]) => runCli(args, {home: home.path})

beforeEach(() => {
  home = tempDir('jobagent-e2e-conventions-')
})

afterEach(() => {
  home.cleanup()
})

describe('help and version, as other CLIs have them', () => {
  it.each([[[]], [['status']], [['config', 'set']], [['config']]])('-h is --help for %j', async (words) => {
    const short = await cli(...words, '-h')
    const long = await cli(...words, '--help')
    expect(short.code, short.stderr).toBe(0)
    expect(short.stdout).toContain('USAGE')
    expect(short.stdout).toBe(long.stdout)
  })

  it('prints the version with jobagent version as with --version', async () => {
    const word = await cli('version')
    expect(word.code, word.stderr).toBe(0)
    expect(word.stdout).toMatch(/^jobagent\/\d+\.\d+\.\d+ \S+ node-v\d+/)
    expect(word.stdout).toBe((await cli('--version')).stdout)
  })

  it('prints the version as JSON with --json, and refuses a flag it does not know', async () => {
    const json = await cli('version', '--json')
    expect(json.code, json.stderr).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual({
      name: 'jobagent',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      platform: process.platform,
      arch: process.arch,
      node: process.versions.node,
    })
    expect((await cli('version', '--colour')).code).toBe(2)
  })

  it('shows every example as a command line and the two forms of run', async () => {
    for (const words of [['serve'], ['ui'], ['config', 'path']]) {
      const help = (await cli(...words, '--help')).stdout
      const examples = help.slice(help.indexOf('EXAMPLES')).split('\n').slice(1).filter(Boolean)
      expect(examples.length, words.join(' ')).toBeGreaterThan(0)
      for (const line of examples) expect(line, words.join(' ')).toMatch(/^ {2}\$ /)
    }
    const usage = (await cli('run', '--help')).stdout.split('\n\n')[1]?.replace(/\s+/g, ' ')
    expect(usage).toContain('$ jobagent run [--tags <value>...] [--source <value>...] [--notify <value>...]')
    expect(usage).toContain('$ jobagent run --demo [--keep] [--tags <value>...]')
  })
})

describe('a mistyped command', () => {
  it.each([
    [['statu'], '"statu" is not a jobagent command. Did you mean "status"?', 'jobagent --help'],
    [['stauts', '--json'], '"stauts" is not a jobagent command. Did you mean "status"?', 'jobagent --help'],
    [['stast'], '"stast" is not a jobagent command. Did you mean "stats"?', 'jobagent --help'],
    [
      ['config', 'lst'],
      '"config lst" is not a jobagent command. Did you mean "config list"?',
      'jobagent config --help',
    ],
    [['shipment', 'shw', 'S-1'], '"shipment shw" is not a jobagent command. Did you mean "shipment show"?', ''],
    [['help', 'config', 'lst'], '"config lst" is not a jobagent command. Did you mean "config list"?', ''],
    [['config', 'lst', '-h'], '"config lst" is not a jobagent command. Did you mean "config list"?', ''],
  ])('%j is refused with exit 2 and the nearest command, in the words typed', async (args, message, hint) => {
    const result = await cli(...args)
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    const [first, second] = result.stderr.split('\n')
    expect(first).toBe(`Error: ${message}`)
    expect(second).toContain(`Hint: ${hint}`)
    expect(result.stderr).not.toMatch(/\w:\w|›| {4}at /)
  })

  it('suggests nothing when nothing is close', async () => {
    for (const args of [['x'], ['config', 'foo']]) {
      const result = await cli(...args)
      expect(result.code).toBe(2)
      expect(result.stderr).toBe(
        `Error: "${args.join(' ')}" is not a jobagent command.\nHint: ${['jobagent', ...args.slice(0, -1)].join(' ')} --help lists the commands.\n`,
      )
    }
  })
})

describe('an argument a command does not take', () => {
  it.each([
    [['runs', 'abc'], 'unexpected argument: abc', 'jobagent runs'],
    [
      ['shipment', 'import', 'examples/shipments'],
      'unexpected argument: examples/shipments',
      'jobagent shipment import',
    ],
    [['stats', 'a', 'b', '--json'], 'unexpected arguments: a b', 'jobagent stats'],
  ])('%j is refused with exit 2, naming the argument and the command', async (args, message, command) => {
    const result = await cli(...args)
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(
      `Error: ${message}\nHint: ${command} takes no arguments; ${command} --help shows its usage.\n`,
    )
  })
})

describe('shell completion', () => {
  it('prints the bash set-up and writes a completion function that completes commands, subcommands and flags', async () => {
    const result = await cli('autocomplete', 'bash')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('printf "$(jobagent autocomplete script bash)" >> ~/.bashrc')

    const script = await cli('autocomplete', 'script', 'bash')
    expect(script.code, script.stderr).toBe(0)
    const setup = join(home.path, '.cache/jobagent/autocomplete/bash_setup')
    expect(script.stdout).toContain(setup)
    const functions = readFileSync(join(home.path, '.cache/jobagent/autocomplete/functions/bash/jobagent.bash'), 'utf8')
    for (const command of ['apply', 'config:list', 'run', 'serve', 'status --json', 'version']) {
      expect(functions).toContain(command)
    }

    // What bash offers on <TAB>, from the script the set-up line sources.
    const completeLine =
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash expands these, not JavaScript.
      'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _jobagent_autocomplete; echo "${COMPREPLY[*]}"'
    const complete = (...words: string[]) =>
      spawnSync('bash', ['-c', completeLine, 'bash', setup, ...words], {
        encoding: 'utf8',
        env: {PATH: process.env.PATH, HOME: home.path},
      }).stdout.trim()
    expect(complete('jobagent', 'sta')).toBe('stats status')
    expect(complete('jobagent', 'config', 'l')).toBe('list')
    expect(complete('jobagent', 'status', '--st')).toBe('--status')
  })

  it('writes a zsh completion function that lists the commands with their summaries', async () => {
    const result = await cli('autocomplete', 'zsh')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('printf "$(jobagent autocomplete script zsh)" >> ~/.zshrc')
    const file = join(home.path, '.cache/jobagent/autocomplete/functions/zsh/_jobagent')
    expect(existsSync(file)).toBe(true)
    const functions = readFileSync(file, 'utf8')
    expect(functions).toContain('#compdef jobagent')
    expect(functions).toContain('"status[List tracked applications, show one, or change its status]"')
    expect(functions).toContain('"list[Show the settings stored in the config file]"')
    expect(functions).toContain('--status"[List only applications with this status.]')
  })
})

describe('jobagent status --status', () => {
  it('says that no application has that status, not that none is tracked', async () => {
    expect((await cli('status', '--status', 'ghosted')).stdout).toContain('No applications tracked yet')
    const apply = await cli(
      'apply',
      'https://example.org/jobs/1',
      '--title',
      'Dev',
      '--company',
      'Acme',
      '--source',
      'x',
    )
    expect(apply.code, apply.stderr).toBe(0)
    const result = await cli('status', '--status', 'ghosted')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe('No applications with status ghosted.\n\nApplications: 1 total, 1 applied, 0 pending\n')
  })
})
