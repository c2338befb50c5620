import {LineLogger} from '../../src/app/line-logger.js'
import type {Logger, LogLevel} from '../../src/core/logger.js'

export interface ParsedLine {
  timestamp: string
  level: string
  name: string
  message: string
}

/** A real line logger writing into memory, and the log line format of docs/COMMANDS.md ("Logs, errors and exit codes") parsed back. */
export function memoryLogger(level: LogLevel = 'DEBUG') {
  const lines: string[] = []
  const logger = new LineLogger('jobagent', {write: (line) => lines.push(line)}, level)
  return {logger, lines, parsed: () => lines.map(parseLogLine)}
}

export function parseLogLine(line: string): ParsedLine {
  const match =
    /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}) \| (DEBUG|INFO|WARNING|ERROR) \| ([\w.:-]+) \| (.*)$/.exec(line)
  if (!match) throw new Error(`not a log line: ${line}`)
  const [, timestamp = '', level = '', name = '', message = ''] = match
  return {timestamp, level, name, message}
}

/** A logger that keeps the message of every warning it is given in `lines`, and drops the other levels. */
export function warningsInto(lines: string[]): Logger {
  const logger: Logger = {
    name: 'test',
    debug() {},
    info() {},
    warning: (message) => lines.push(message),
    error() {},
    child: () => logger,
  }
  return logger
}
