import {escapeControls} from './control-characters.js'
import {localTimestamp} from './time.js'

export type LogLevel = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR'

export const LOG_LEVELS: readonly LogLevel[] = ['DEBUG', 'INFO', 'WARNING', 'ERROR']

/** The logging port. Names are dotted (`jobagent.run`, `jobagent.sources.remoteok`). */
export interface Logger {
  readonly name: string
  debug(message: string): void
  info(message: string): void
  warning(message: string): void
  error(message: string): void
  child(suffix: string): Logger
}

/** A logger that drops everything; for services used where nobody reads the log. */
export const silentLogger: Logger = {
  name: 'jobagent',
  debug() {},
  info() {},
  warning() {},
  error() {},
  child() {
    return silentLogger
  },
}

/**
 * `<timestamp> | <level> | <logger name> | <message>`: one line per record. Newlines and every other control
 * character in the name (a configured feed's name) and the message (a board's error page) are escaped, so a
 * record stays one line and drives no terminal. `timestamp` is an `applied_date`-style local time, now by default.
 */
export function formatLogLine(
  level: LogLevel,
  name: string,
  message: string,
  timestamp: string = localTimestamp(new Date()),
): string {
  return `${timestamp} | ${level} | ${escapeControls(name)} | ${escapeControls(message)}`
}

/**
 * The lines logged through a logger, kept besides wherever it writes them: every INFO, WARNING and ERROR
 * record, whatever level the logger itself shows (a run under --quiet still reports its steps to a monitor).
 */
export class LogRecorder {
  private lines: string[] = []
  private bytes = 0

  /** Keeps about the last `limit` characters; older lines are dropped. */
  constructor(private readonly limit: number) {}

  wrap(logger: Logger): Logger {
    const record = (level: LogLevel, message: string) => this.add(formatLogLine(level, logger.name, message))
    return {
      name: logger.name,
      debug: (message) => logger.debug(message),
      info: (message) => {
        record('INFO', message)
        logger.info(message)
      },
      warning: (message) => {
        record('WARNING', message)
        logger.warning(message)
      },
      error: (message) => {
        record('ERROR', message)
        logger.error(message)
      },
      child: (suffix) => this.wrap(logger.child(suffix)),
    }
  }

  add(line: string): void {
    this.lines.push(line)
    this.bytes += line.length + 1
    while (this.bytes > this.limit && this.lines.length > 1) this.bytes -= (this.lines.shift() as string).length + 1
  }

  text(): string {
    return this.lines.length ? `${this.lines.join('\n')}\n` : ''
  }
}
