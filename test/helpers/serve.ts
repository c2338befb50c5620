import {type ChildProcess, spawn} from 'node:child_process'
import {BUILT_CLI, ROOT} from './cli.js'

export interface BuiltServer {
  /** `http://127.0.0.1:<port>` from the server's start line. */
  url: string
  child: ChildProcess
  /** Everything written to stderr so far (the start line, access log lines). */
  stderr: () => string
  /** Kills the server (SIGKILL) if it is still running and waits for it to end. */
  stop: () => Promise<void>
}

/**
 * The built `jobagent serve` (or `program` in `cwd`: the single executable) on 127.0.0.1 and a free port (or
 * `port`), JOBAGENT_HOME at `dir`, with `args` after `serve`; resolves once it listens.
 */
export async function serveBuilt(
  dir: string,
  env: Record<string, string> = {},
  {
    program = BUILT_CLI,
    cwd = ROOT,
    args = [],
    port = 0,
  }: {program?: readonly string[]; cwd?: string; args?: readonly string[]; port?: number} = {},
): Promise<BuiltServer> {
  const [command = process.execPath, ...first] = program
  const child = spawn(command, [...first, 'serve', '--port', String(port), ...args], {
    cwd,
    env: {PATH: process.env.PATH, HOME: dir, JOBAGENT_HOME: dir, NO_COLOR: '1', ...env},
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const ended = new Promise<void>((resolve) => child.on('close', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await ended
  }
  let stderr = ''
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr?.on('data', (chunk) => {
        stderr += chunk
        const match = /Listening on (http:\/\/\S+)/.exec(stderr)
        if (match?.[1]) resolve(match[1])
      })
      child.on('exit', (code) => reject(new Error(`jobagent serve exited ${code}: ${stderr}`)))
    })
    return {url, child, stderr: () => stderr, stop}
  } catch (error) {
    await stop()
    throw error
  }
}
