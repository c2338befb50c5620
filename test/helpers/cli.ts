import {type ChildProcessWithoutNullStreams, spawn} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'

export const ROOT = resolve(import.meta.dirname, '../..')
export const BIN = join(ROOT, 'bin/run.js')

/** `jobagent shipment import` of the example data set (examples/shipments: 5 shipments, 20 telemetry documents). */
export const IMPORT_EXAMPLE_SHIPMENTS: readonly string[] = [
  'shipment',
  'import',
  '--metadata',
  join(ROOT, 'examples/shipments/metadata.csv'),
  '--telemetry',
  join(ROOT, 'examples/shipments/telemetry.ndjson'),
]

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

export interface CliOptions {
  home: string
  env?: Record<string, string | undefined>
  input?: string
  cwd?: string
  timeoutMs?: number
  /** The program and its first arguments: the built CLI by default, or the single executable. */
  program?: readonly string[]
  /** Runs it as this user and group (the test runs as root), for whom file permissions apply. */
  user?: {uid: number; gid: number}
}

/** The built CLI as Node runs it. */
export const BUILT_CLI: readonly string[] = [process.execPath, BIN]

/** A started CLI process: its pipes, what it has written so far, and when it exits. */
export interface StartedCli {
  child: ChildProcessWithoutNullStreams
  stdout(): string
  stderr(): string
  /** Its exit code, and `performance.now()` when it closed. */
  exited: Promise<{code: number | null; at: number}>
}

/**
 * Starts the built CLI (`bin/run.js`) with JOBAGENT_HOME pointing at a temporary directory, for a test that talks
 * to it while it runs; killed after `timeoutMs` (20 s by default).
 */
export function startCli(args: readonly string[], options: Omit<CliOptions, 'input'>): StartedCli {
  const [command = process.execPath, ...first] = options.program ?? BUILT_CLI
  const child = spawn(command, [...first, ...args], {
    cwd: options.cwd ?? ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: options.home,
      JOBAGENT_HOME: options.home,
      NO_COLOR: '1',
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
    ...options.user,
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000)
  const exited = new Promise<{code: number | null; at: number}>((resolvePromise, reject) => {
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolvePromise({code, at: performance.now()})
    })
  })
  // A command that exits without reading its input closes the pipe first; that EPIPE is not the test's failure.
  child.stdin.on('error', () => {})
  return {child, stdout: () => stdout, stderr: () => stderr, exited}
}

/** Runs the built CLI (`bin/run.js`) with JOBAGENT_HOME pointing at a temporary directory. */
export async function runCli(args: readonly string[], options: CliOptions): Promise<CliResult> {
  const started = startCli(args, options)
  started.child.stdin.end(options.input ?? '')
  const {code} = await started.exited
  return {code, stdout: started.stdout(), stderr: started.stderr()}
}

/** A fresh directory for one test; removed by the returned cleanup. */
export function tempDir(prefix = 'jobagent-test-'): {path: string; cleanup: () => void} {
  const path = mkdtempSync(join(tmpdir(), prefix))
  return {path, cleanup: () => rmSync(path, {recursive: true, force: true})}
}
