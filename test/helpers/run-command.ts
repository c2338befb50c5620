import {readdirSync} from 'node:fs'
import {join, relative} from 'node:path'
import {Readable, Writable} from 'node:stream'
import {Config} from '@oclif/core/config'
import type {BaseCommand, CommandIo} from '../../src/cli/base-command.js'
import {type CliResult, ROOT} from './cli.js'

export interface RunCommandOptions {
  /** JOBAGENT_HOME and HOME: the command's config and data live here. */
  home: string
  /** Added to the environment runCli gives the built CLI (PATH, HOME, JOBAGENT_HOME, NO_COLOR=1). */
  env?: Record<string, string | undefined>
  /** What the command reads on stdin; nothing (an ended stream) by default, as runCli gives. */
  stdin?: string
  /** stdin and stdout are a terminal (80 columns), as when a person types the command; a pipe by default. */
  terminal?: boolean
  /** The terminal's width when `terminal` is set; 80 by default. */
  columns?: number
  /** stderr is a terminal (100 columns), where live progress lines are drawn; a pipe by default. */
  stderrTerminal?: boolean
}

type CommandClass = (new (argv: string[], config: Config) => BaseCommand) & {id?: string}

const COMMANDS = join(ROOT, 'commands')

/**
 * Runs a command class in this process, as the built CLI would run it: the same environment runCli gives the
 * spawned CLI, stdout and stderr captured, and the exit code the process would end with: 0, the code the command
 * recorded, or the code of the error it ended with (oclif's parse errors included). Each call builds everything
 * anew and the command closes its context (and so its databases) when it ends, so nothing carries over to the
 * next call.
 */
export async function runCommand(Command: CommandClass, argv: readonly string[], options: RunCommandOptions) {
  const config = await Config.load(ROOT)
  Command.id ??= await commandIdOf(Command)
  let stdout = ''
  let stderr = ''
  let code = 0
  const io: CommandIo = {
    stdout: capture((text) => {
      stdout += text
    }),
    stderr: capture((text) => {
      stderr += text
    }),
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]) as unknown as NodeJS.ReadStream,
    env: {
      PATH: process.env.PATH,
      HOME: options.home,
      JOBAGENT_HOME: options.home,
      NO_COLOR: '1',
      ...options.env,
    },
    setExitCode: (recorded) => {
      code = recorded
    },
  }
  if (options.terminal) {
    Object.assign(io.stdin, {isTTY: true})
    Object.assign(io.stdout, {isTTY: true, columns: options.columns ?? 80})
  }
  if (options.stderrTerminal) Object.assign(io.stderr, {isTTY: true, columns: 100})
  // oclif reads an argument left out of the command line from the process's stdin, through a cache of its own.
  const oclifGlobal = globalThis as {oclif?: {stdinCache?: string}}
  const processExitCode = process.exitCode
  if (options.stdin !== undefined) oclifGlobal.oclif = {...oclifGlobal.oclif, stdinCache: options.stdin}
  try {
    await new Command([...argv], config).runWithIo(io)
  } catch (error) {
    const exit = (error as {oclif?: {exit?: number}}).oclif?.exit
    if (typeof exit !== 'number') throw error
    // What oclif's handler prints for its own errors; the commands' errors were written by the command already.
    if ((error as {code?: string}).code !== 'EEXIT') stderr += `Error: ${(error as Error).message}\n`
    code = exit
  } finally {
    delete oclifGlobal.oclif?.stdinCache
    process.exitCode = processExitCode
  }
  return {code, stdout, stderr} satisfies CliResult
}

/**
 * Runs a command line (`['config', 'set', 'mode', 'production']`) in this process: the command is the longest
 * leading run of words that names a file under commands/, as oclif finds it.
 */
export async function runCommandLine(args: readonly string[], options: RunCommandOptions) {
  for (let words = Math.min(args.length, 2); words > 0; words--) {
    const id = args.slice(0, words).join(':')
    if (!commandIds().includes(id)) continue
    const module = (await import(join(COMMANDS, `${id.replaceAll(':', '/')}.ts`))) as {default: CommandClass}
    module.default.id ??= id
    return runCommand(module.default, args.slice(words), options)
  }
  throw new Error(`no command in ${args.join(' ')}`)
}

function capture(append: (text: string) => void): NodeJS.WriteStream {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      append(String(chunk))
      done()
    },
  }) as unknown as NodeJS.WriteStream
}

/** `status`, `config:set`: the ids oclif gives the files under commands/. */
function commandIds(dir = COMMANDS): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) =>
    entry.isDirectory()
      ? commandIds(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [relative(COMMANDS, join(dir, entry.name)).replace(/\.ts$/, '').split('/').join(':')]
        : [],
  )
}

/** The id oclif gives the class when it loads it from its file: the help hint and error messages name it. */
async function commandIdOf(Command: CommandClass): Promise<string> {
  // The class name mostly says the id (ConfigSet: config:set), so that file is tried first.
  const named = (id: string) => id.replace(/[:-]/g, '') === Command.name.toLowerCase()
  for (const id of commandIds().sort((a, b) => Number(named(b)) - Number(named(a)))) {
    const module = (await import(join(COMMANDS, `${id.replaceAll(':', '/')}.ts`))) as {default: unknown}
    if (module.default === Command) return id
  }
  throw new Error(`${Command.name} is no command under commands/`)
}
