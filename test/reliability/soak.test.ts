// The soak of bench/soak.js (`npm run soak`, 60 s), shortened to 10 s after a 35 s warm-up: the server's memory
// grows to its working size over its first requests, and beside the other test files it answers only a fraction
// of its usual rate, so a 20 s warm-up sometimes ended before that (RSS +10% and +31% seen in two loaded runs).
import {spawn} from 'node:child_process'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'

interface SoakReport {
  ok: boolean
  requests: number
  errors: number
  timeouts: number
  unexpected_statuses: number
  answers: Record<string, number>
  rss_kib: {after_warmup: number; after_run: number; change_percent: number; peak: number}
  server_error_lines: string[]
  server_exit_code: number
  failures: string[]
}

function soak(args: string[]): Promise<{code: number | null; report: SoakReport; stderr: string}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench/soak.js'), ...args, '--json'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    // The script stops its own server; this only bounds a script that hangs.
    const limit = setTimeout(() => child.kill('SIGKILL'), 130_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(limit)
      try {
        resolve({code, report: JSON.parse(stdout) as SoakReport, stderr})
      } catch {
        reject(new Error(`no report from bench/soak.js (exit ${code}): ${stdout}${stderr}`))
      }
    })
  })
}

describe('jobagent serve under 10 s of mixed API traffic at 32 connections', () => {
  // Beside the other test files on two cores, the server answers a fraction of its usual rate and its resident size
  // wanders by about 10% (10.6% seen once in a clean-clone CI; 1.8-3.5% when run alone): one more try keeps that
  // noise from failing the suite, while a leak fails both.
  it('answers every request with its success status and does not grow its memory by more than 10%', {
    retry: 1,
    timeout: 150_000,
  }, async () => {
    const {code, report, stderr} = await soak(['--seconds', '10', '--warmup', '35'])

    expect(report.failures).toEqual([])
    expect(code, stderr).toBe(0)
    expect(report).toMatchObject({ok: true, errors: 0, timeouts: 0, unexpected_statuses: 0, server_exit_code: 0})
    expect(report.server_error_lines).toEqual([])
    // Every route of the mix was exercised, and only with its success status.
    expect(Object.keys(report.answers).sort()).toEqual([
      'GET /applications 200',
      'GET /applications/{url}/status 200',
      'GET /health 200',
      'GET /metrics 200',
      'PATCH /applications/{url}/status 200',
      'POST /applications 201',
    ])
    expect(report.requests).toBeGreaterThan(1000)
    expect(report.rss_kib.after_run).toBeLessThanOrEqual(report.rss_kib.after_warmup * 1.1)
  })
})
