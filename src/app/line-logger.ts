import type {Writable} from 'node:stream'
import {formatLogLine, LOG_LEVELS, type Logger, type LogLevel} from '../core/logger.js'
import {type Clock, localTimestamp, systemClock} from '../core/time.js'

interface LogSink {
  write(line: string): void
}

export function streamSink(stream: Writable = process.stderr): LogSink {
  return {write: (line) => stream.write(`${line}\n`)}
}

/**
 * Writes the lines of one event-loop turn together (and what is left at exit): for a line per HTTP request,
 * where one write each to a pipe (stderr under a service manager) costs more than the rest of a small request.
 */
export function batchedSink(stream: Writable = process.stderr): LogSink {
  let pending: string[] = []
  const flush = () => {
    if (pending.length === 0) return
    const text = `${pending.join('\n')}\n`
    pending = []
    stream.write(text)
  }
  process.once('exit', flush)
  return {
    write(line) {
      if (pending.length === 0) setImmediate(flush)
      pending.push(line)
    },
  }
}

export interface RedirectableSink extends LogSink {
  /** Sends lines to `target` until it is cleared with null. */
  redirect(target: LogSink | null): void
}

export function redirectableSink(fallback: LogSink): RedirectableSink {
  let target: LogSink | null = null
  return {
    write: (line) => (target ?? fallback).write(line),
    redirect: (next) => {
      target = next
    },
  }
}

/**
 * The text of the current millisecond, kept between records: a server logs thousands of lines a second, most
 * within the same millisecond as the one before. One clock is shared by a logger and its children.
 */
export class TimestampCache {
  private ms = Number.NaN
  private text = ''

  constructor(private readonly clock: Clock = systemClock) {}

  now(): string {
    const ms = this.clock.now().getTime()
    if (ms !== this.ms) {
      this.ms = ms
      this.text = localTimestamp(new Date(ms))
    }
    return this.text
  }
}

/** The run log's line format (see formatLogLine) on a sink, from `level` up. */
export class LineLogger implements Logger {
  private readonly threshold: number

  constructor(
    readonly name: string,
    private readonly sink: LogSink,
    level: LogLevel = 'INFO',
    private readonly clock: TimestampCache = new TimestampCache(),
  ) {
    this.threshold = LOG_LEVELS.indexOf(level)
  }

  private log(level: LogLevel, message: string): void {
    if (LOG_LEVELS.indexOf(level) < this.threshold) return
    this.sink.write(formatLogLine(level, this.name, message, this.clock.now()))
  }

  debug(message: string): void {
    this.log('DEBUG', message)
  }

  info(message: string): void {
    this.log('INFO', message)
  }

  warning(message: string): void {
    this.log('WARNING', message)
  }

  error(message: string): void {
    this.log('ERROR', message)
  }

  child(suffix: string): Logger {
    return new LineLogger(`${this.name}.${suffix}`, this.sink, LOG_LEVELS[this.threshold], this.clock)
  }
}

/**
 * `--verbose` or `DEBUG=jobagent*` shows DEBUG lines; `--quiet` keeps only warnings and errors; otherwise the
 * configured level (server.log_level, JOBAGENT_LOG_LEVEL) where the caller has one, else INFO.
 */
export function logLevelFor(options: {
  verbose?: boolean
  quiet?: boolean
  env?: NodeJS.ProcessEnv
  configured?: LogLevel
}): LogLevel {
  const debugEnv = options.env?.DEBUG ?? ''
  if (options.verbose || /(^|,)\s*jobagent(\*|[.:]|$)/.test(debugEnv)) return 'DEBUG'
  if (options.quiet) return 'WARNING'
  return options.configured ?? 'INFO'
}
