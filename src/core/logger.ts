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
