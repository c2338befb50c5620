import {existsSync, readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

/** The package root, found from this file whether it runs from src/ (development) or dist/src/ (built). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error('package.json of jobagent not found')
    dir = parent
  }
  return dir
}

export const VERSION: string = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version

/** The User-Agent of every outbound request: names jobagent and its version, and where to read about it. */
export const USER_AGENT = `jobagent/${VERSION} (+https://github.com/jobagent/jobagent)`
