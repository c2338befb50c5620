import {spawn} from 'node:child_process'
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
}

/** The built CLI as Node runs it. */
export const BUILT_CLI: readonly string[] = [process.execPath, BIN]

/** Runs the built CLI (`bin/run.js`) with JOBAGENT_HOME pointing at a temporary directory. */
export function runCli(args: readonly string[], options: CliOptions): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
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
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolvePromise({code, stdout, stderr})
    })
    // A command that exits without reading its input closes the pipe first; that EPIPE is not the test's failure.
    child.stdin.on('error', () => {})
    child.stdin.end(options.input ?? '')
  })
}

/** A fresh directory for one test; removed by the returned cleanup. */
export function tempDir(prefix = 'jobagent-test-'): {path: string; cleanup: () => void} {
  const path = mkdtempSync(join(tmpdir(), prefix))
  return {path, cleanup: () => rmSync(path, {recursive: true, force: true})}
}
