import {format} from 'node:util'
import {clockFromEnv} from '../app/clock.js'
import type {Env} from '../app/config.js'
import {AppContext, type ContextOptions} from '../app/context.js'
import {
  LineLogger,
  logLevelFor,
  type RedirectableSink,
  redirectableSink,
  streamSink,
  TimestampCache,
} from '../app/line-logger.js'
import {escapeControls} from '../core/control-characters.js'
import {describeFileError, isJobagentError, isSystemError, ValidationError} from '../core/errors.js'
import type {Logger} from '../core/logger.js'
import type {Clock} from '../core/time.js'
import {outliveClosedOutput} from './closed-output.js'
import {firstLine, isYes} from './confirm.js'
import {EXIT_FAILURE, EXIT_USAGE, exitCodeFor} from './exit-codes.js'
import {Command, Flags, type Interfaces} from './oclif.js'
import {errorDocument} from './render/error-document.js'
import {writeJson} from './render/json-output.js'
import {colourEnabled, makeStyle, type Style} from './style.js'

/** Flags or arguments as oclif's parser gives them, by name. */
type ParsedByName = {[name: string]: unknown}

/**
 * What a command reads and writes besides its files: its output streams, its input, its environment, and where its
 * exit status goes. A command uses these and never the process's own, so a test can run it in process.
 */
export interface CommandIo {
  stdout: NodeJS.WriteStream
  stderr: NodeJS.WriteStream
  stdin: NodeJS.ReadStream
  env: Env
  /** Records the exit status of a command that finished its work but failed (a failed board, a failed channel). */
  setExitCode(code: number): void
}

/** The process's own streams, environment and exit status: what a command uses when the CLI runs it. */
function processIo(): CommandIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    setExitCode: (code) => {
      process.exitCode = code
    },
  }
}

/**
 * What every jobagent command shares: --verbose/--quiet, the line logger on stderr, the application context,
 * and one mapping of errors to messages and exit codes (no stack traces for errors the user can fix).
 */
export abstract class BaseCommand extends Command {
  static baseFlags = {
    verbose: Flags.boolean({description: 'Show debug lines and the causes of errors.', helpGroup: 'GLOBAL'}),
    quiet: Flags.boolean({description: 'Show only warnings and errors.', helpGroup: 'GLOBAL', exclusive: ['verbose']}),
  }

  private appContext: AppContext | undefined
  private commandClock: Clock | undefined
  /** The command line as init() parsed it, handed to run()'s own parse of the same command. */
  private commandLine: Promise<unknown> | undefined
  protected verbose = false
  protected quietLogs = false
  private commandIo: CommandIo = processIo()
  private styleOfIo: Style | undefined
  private logSinkOfIo: RedirectableSink | undefined

  /**
   * Runs the command as oclif does (init, run, catch, finally) with `io` instead of the process's streams,
   * environment and exit status: how tests run a command in process.
   */
  runWithIo(io: CommandIo): Promise<unknown> {
    this.commandIo = io
    return this._run()
  }

  protected get io(): CommandIo {
    return this.commandIo
  }

  protected get env(): Env {
    return this.commandIo.env
  }

  /** Colour only when the command's stdout is a terminal and its environment allows it. */
  protected get style(): Style {
    this.styleOfIo ??= makeStyle(colourEnabled(this.io.stdout, this.env))
    return this.styleOfIo
  }

  /** The width of the terminal stdout is, for tables; undefined off a terminal, where nothing is cut. */
  protected get terminalWidth(): number | undefined {
    return this.io.stdout.isTTY ? (this.io.stdout.columns ?? 80) : undefined
  }

  /** Where the command's exit status goes when it finished but failed; errors thrown map to theirs in catch(). */
  protected setExitCode(code: number): void {
    this.io.setExitCode(code)
  }

  async init(): Promise<void> {
    outliveClosedOutput()
    await super.init()
    // Parsed here, before run(), so the logger and the error report know them in every command.
    const {flags} = await this.parse(this.ctor)
    // DEBUG=jobagent* means the same as --verbose: debug lines and the causes of errors.
    this.verbose = logLevelFor({verbose: flags.verbose === true, env: this.env}) === 'DEBUG'
    this.quietLogs = flags.quiet === true
  }

  /**
   * The command's own command line is parsed once: oclif reads stdin for an argument left out, and read a second
   * time, a stdin at its end (cron's, a pipe's) gives nothing until oclif's 10 ms timeout, which every command
   * with an optional argument waited for.
   */
  protected override parse<F extends ParsedByName, B extends ParsedByName, A extends ParsedByName>(
    options?: Interfaces.Input<F, B, A>,
    argv?: string[],
  ): Promise<Interfaces.ParserOutput<F, B, A>> {
    if (argv !== undefined || (options !== undefined && options !== this.ctor)) return super.parse(options, argv)
    this.commandLine ??= super.parse(options).catch((error: unknown) => {
      throw this.usageError(error)
    })
    return this.commandLine as Promise<Interfaces.ParserOutput<F, B, A>>
  }

  /**
   * oclif marks most of its parse errors with an exit code (2); an argument's own parse (`Args.integer` given
   * `abc`) throws a bare Error, which is the same mistake of the command line, not a bug.
   */
  private usageError(error: unknown): unknown {
    if (!(error instanceof Error) || typeof (error as {oclif?: {exit?: number}}).oclif?.exit === 'number') return error
    return new ValidationError(`invalid argument: ${error.message}`, {hint: this.helpHint()})
  }

  /** Where log lines go; a live display may take them over so they print above it instead of through it. */
  protected get logSink(): RedirectableSink {
    this.logSinkOfIo ??= redirectableSink(streamSink(this.io.stderr))
    return this.logSinkOfIo
  }

  /** The system's clock, or the one JOBAGENT_NOW sets for a test that spawns jobagent; one per command. */
  protected get clock(): Clock {
    this.commandClock ??= clockFromEnv(this.env)
    return this.commandClock
  }

  protected get logger(): Logger {
    return new LineLogger(
      'jobagent',
      this.logSink,
      logLevelFor({verbose: this.verbose, quiet: this.quietLogs, env: this.env}),
      new TimestampCache(this.clock),
    )
  }

  /** Opens the application context once; commands with config-changing flags pass them here first. */
  protected openContext(options: Pick<ContextOptions, 'overrides' | 'selectSources'> = {}): AppContext {
    this.appContext ??= new AppContext({...options, env: this.env, logger: this.logger, clock: this.clock})
    return this.appContext
  }

  protected get context(): AppContext {
    return this.openContext()
  }

  /**
   * What the command writes with the configured secrets masked: a board's or a channel's answer may echo them,
   * in a report, a summary or an error. Nothing is masked before the context (and so the configuration) is open.
   */
  private masked(text: string): string {
    return this.appContext ? this.appContext.secrets.mask(text) : text
  }

  /** Plain JSON: oclif's colouring tokeniser takes seconds on documents with thousands of jobs or records. */
  logJson(json: unknown): void {
    const document = this.appContext ? this.appContext.secrets.maskStrings(json) : json
    writeJson(document, (text) => this.io.stdout.write(text))
  }

  /** A line on the command's stdout, as oclif's own log() writes it (nothing under --json). */
  log(message = '', ...args: unknown[]): void {
    if (this.jsonEnabled()) return
    this.io.stdout.write(`${this.masked(format(message, ...args))}\n`)
  }

  logToStderr(message = '', ...args: unknown[]): void {
    if (this.jsonEnabled()) return
    this.io.stderr.write(`${this.masked(format(message, ...args))}\n`)
  }

  /**
   * Goes ahead with a change that cannot be undone only when the person says so: `yes` (the command's --yes) says it
   * for them; on a terminal (stdin and stdout) they are asked and answer y or n; off a terminal nobody can answer,
   * so the change is refused (exit 2) and a script that deletes says it means to with --yes. On no, nothing is done
   * and the command exits 1.
   */
  protected async confirm(change: {question: string; refusal: string; withYes: string; yes: boolean}): Promise<void> {
    if (change.yes) return
    if (this.io.stdin.isTTY !== true || this.io.stdout.isTTY !== true) {
      throw new ValidationError(`${change.refusal}; off a terminal it needs --yes`, {hint: change.withYes})
    }
    // On stderr, as the answer's prompt, so --json output stays one document.
    this.io.stderr.write(`${escapeControls(change.question)} [y/N] `)
    if (isYes(await firstLine(this.io.stdin))) return
    this.io.stderr.write('Nothing was deleted.\n')
    this.exit(EXIT_FAILURE)
  }

  async catch(thrown: Interfaces.CommandError): Promise<unknown> {
    // An operating-system error that no layer described (a full disk, a read-only or missing directory, too many
    // open files) is the environment's, not a bug: it still names the path and what to do, and exits 1.
    const error = isSystemError(thrown)
      ? (describeFileError(thrown, thrown.path ?? '', thrown.syscall ?? 'use') as Interfaces.CommandError)
      : this.usageErrorOf(thrown)
    if (!isJobagentError(error)) {
      if (typeof (error as {oclif?: {exit?: number}}).oclif?.exit === 'number') return super.catch(error)
      this.io.stderr.write(this.masked(`Error: unexpected failure: ${escapeControls(error.message)}\n`))
      this.io.stderr.write(
        this.verbose
          ? this.masked(`${escapeControls(error.stack ?? '', {keepLineBreaks: true})}\n`)
          : 'This is a bug in jobagent; run again with --verbose for details.\n',
      )
      return this.exit(EXIT_FAILURE)
    }
    if (this.jsonEnabled()) {
      this.logJson(errorDocument(error))
    }
    // Messages quote files, rows, boards and stores: shown escaped, like all outside text on the terminal.
    const write = (text: string) => this.io.stderr.write(this.masked(text))
    write(`Error: ${escapeControls(error.message)}\n`)
    const details = error.details.filter((detail) => !error.message.includes(detail.message))
    for (const detail of details.slice(0, 50)) {
      const where = [detail.row === undefined ? '' : `row ${detail.row}`, detail.field ?? ''].filter(Boolean).join(', ')
      write(`  - ${escapeControls(where ? `${where}: ` : '')}${escapeControls(detail.message)}\n`)
    }
    if (details.length > 50) write(`  … and ${details.length - 50} more\n`)
    // Every refused input gets a next step: where none is more fitting, the command's help, which says what it takes.
    const hint =
      error.hint ??
      (error.kind === 'validation' && this.id
        ? `see what it takes with: jobagent ${this.id.replaceAll(':', ' ')} --help`
        : null)
    if (hint) write(`Hint: ${escapeControls(hint)}\n`)
    if (this.verbose && error.cause) {
      const cause = String((error.cause as Error).stack ?? error.cause)
      write(`Cause: ${escapeControls(cause, {keepLineBreaks: true})}\n`)
    }
    return this.exit(exitCodeFor(error.kind))
  }

  /**
   * A mistake oclif's parser found (an unknown flag, a bad value, flags that exclude each other) is answered like
   * every other usage error: `Error:` and `Hint:`, exit 2, and with --json the error document on stdout. oclif's own
   * answer is an indented block without a hint, and with --json the error object with its whole parse context.
   */
  private usageErrorOf(error: Interfaces.CommandError): Interfaces.CommandError {
    const oclif = (error as {oclif?: {exit?: number}}).oclif
    if (oclif?.exit !== EXIT_USAGE || (error as {code?: string}).code === 'EEXIT') return error
    const missing = this.missingFlagsError(error)
    if (missing) return missing as unknown as Interfaces.CommandError
    const lines = error.message
      .split('\n')
      .map((line) => line.trim())
      // oclif's preamble says nothing the reason does not: "The following error occurred:".
      .filter(
        (line) => line !== '' && !line.startsWith('See more help') && !/^The following errors? occurred:?$/.test(line),
      )
    // "Missing 1 required arg:" then "value  New value (JSON or text)." for each: the argument by its name, with what it is.
    const missingArgs = /^Missing \d+ required args?:$/.test(lines[0] ?? '')
    const message = missingArgs
      ? `missing ${lines
          .slice(1)
          .map((line) => {
            const [name, ...about] = line.split(/\s{2,}/)
            return about.length > 0 ? `<${name}>: ${about.join(' ').replace(/\.$/, '')}` : `<${name}>`
          })
          .join('; ')}`
      : lines
          .map((line) => line.replace(/\s+/g, ' '))
          .reduce((text, line) => (text === '' ? line : `${text}${text.endsWith(':') ? ' ' : ': '}${line}`), '')
    return new ValidationError(message, {hint: this.helpHint()}) as unknown as Interfaces.CommandError
  }

  /**
   * oclif says "The following error occurred: Missing required flag at". The user needs the flag as it is typed,
   * what it takes, and a command line that gives it: the first of the command's own examples that gives every
   * missing flag, so each command's hint comes from its help and no command words its own.
   */
  private missingFlagsError(error: Error): ValidationError | undefined {
    if (!error.message.includes('Missing required flag')) return undefined
    const {parse} = error as {
      parse?: {input?: {flags?: Record<string, {required?: boolean; description?: string}>}; output?: {flags?: object}}
    }
    const given = (parse?.output?.flags ?? {}) as Record<string, unknown>
    const missing = Object.entries(parse?.input?.flags ?? {}).filter(
      ([name, flag]) => flag.required === true && given[name] === undefined,
    )
    if (missing.length === 0) return undefined
    const described = missing.map(([name, flag]) => `--${name}${flag.description ? ` (${flag.description})` : ''}`)
    const example = this.exampleGiving(missing.map(([name]) => `--${name}`))
    return new ValidationError(`missing required flag${missing.length > 1 ? 's' : ''} ${described.join(', ')}`, {
      hint: example ? `e.g. ${example}` : this.helpHint(),
    })
  }

  /** The first example of the command's help whose command line gives all these flags, as the help prints it. */
  private exampleGiving(flags: readonly string[]): string | undefined {
    for (const example of this.ctor.examples ?? []) {
      const line = (typeof example === 'string' ? example : example.command)
        .replaceAll('<%= config.bin %>', this.config.bin)
        .replaceAll('<%= command.id %>', (this.id ?? '').replaceAll(':', ' '))
        .replace(/^\$ /, '')
      const words = new Set(line.split(' ').map((word) => word.split('=')[0]))
      if (flags.every((flag) => words.has(flag))) return line
    }
    return undefined
  }

  private helpHint(): string {
    return `${this.config.bin} ${(this.id ?? '').replaceAll(':', ' ')} --help shows what it takes`
  }

  async finally(error: Error | undefined): Promise<unknown> {
    await this.appContext?.close()
    return super.finally(error)
  }
}
