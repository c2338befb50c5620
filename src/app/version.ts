import {packageJsonText} from './shipped-files.js'

export const VERSION: string = JSON.parse(packageJsonText()).version

/** The User-Agent of every outbound request: names jobagent and its version, and where to read about it. */
export const USER_AGENT = `jobagent/${VERSION} (+https://github.com/jobagent/jobagent)`
