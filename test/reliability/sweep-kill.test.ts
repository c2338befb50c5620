// A sweep killed with SIGKILL at a moment picked by a seeded draw (after N boards are stored) and then run again
// ends with the matches an uninterrupted sweep of the same directory stores, and the kill leaves no board half
// written. Only the killed sweep is spawned (the built CLI); the reference sweep, the resumed one and the reads
// of what they stored run in this process.
import {type ChildProcess, spawn} from 'node:child_process'
import {existsSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import Jobs from '../../commands/jobs.js'
import Sweep from '../../commands/sweep.js'
import {BIN, ROOT, tempDir} from '../helpers/cli.js'
import {FUZZ_SEED} from '../helpers/fuzz.js'
import {runCommand} from '../helpers/run-command.js'
import {mirrorUrls, type SweepMirror, startSweepMirror, writeTestDirectory} from '../helpers/sweep-mirror.js'

const NOW = {JOBAGENT_NOW: '2026-11-22T05:00:00'}
// The test directory without its busy board: 39 boards, 3 of them dead and 1 malformed.
const BOARDS = 39

let mirror: SweepMirror
let directory: ReturnType<typeof tempDir>
let directoryFile: string
let reference: Match[]
const cleanups: (() => Promise<void> | void)[] = []

interface Match {
  url: string
  score: number
}

function home(): string {
  const dir = tempDir('jobagent-sweep-kill-')
  cleanups.push(dir.cleanup)
  const config = {
    profile: {roles: ['software engineer', 'ai engineer', 'account executive']},
    sweep: {urls: mirrorUrls(mirror)},
  }
  writeFileSync(join(dir.path, 'config.json'), JSON.stringify(config), {mode: 0o600})
  return dir.path
}

const sweep = (dir: string) => runCommand(Sweep, ['--directory', directoryFile, '--json'], {home: dir, env: NOW})

/** The jobs of the latest run (the sweep's), by key and score, in key order. */
async function storedMatches(dir: string): Promise<Match[]> {
  const listed = await runCommand(Jobs, ['--json'], {home: dir, env: NOW})
  expect(listed.code, listed.stderr).toBe(0)
  return (JSON.parse(listed.stdout) as Match[])
    .map(({url, score}) => ({url, score}))
    .sort((a, b) => a.url.localeCompare(b.url))
}

/** Kill points in thirds of the directory, drawn from the fuzz seed so a failure replays with JOBAGENT_FUZZ_SEED. */
function killPoints(seed: number): number[] {
  let state = seed >>> 0
  const next = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
  const third = Math.floor((BOARDS - 3) / 3)
  return [0, 1, 2].map((part) => 1 + part * third + Math.floor(next() * third))
}

function pollUntil(check: () => boolean, what: string, limitMs = 15_000): Promise<void> {
  const deadline = Date.now() + limitMs
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      try {
        if (check()) {
          clearInterval(timer)
          resolve()
        } else if (Date.now() > deadline) {
          clearInterval(timer)
          reject(new Error(`timed out waiting for ${what}`))
        }
      } catch (error) {
        clearInterval(timer)
        reject(error)
      }
    }, 2)
  })
}

/** The built CLI's sweep in its own process, killed after 20 s at the latest. */
function startSweep(dir: string): {
  child: ChildProcess
  stderr: () => string
  ended: Promise<{code: number | null; signal: NodeJS.Signals | null}>
} {
  const child = spawn(process.execPath, [BIN, 'sweep', '--directory', directoryFile], {
    cwd: ROOT,
    env: {PATH: process.env.PATH, HOME: dir, JOBAGENT_HOME: dir, NO_COLOR: '1', ...NOW},
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const limit = setTimeout(() => child.kill('SIGKILL'), 20_000)
  const ended = new Promise<{code: number | null; signal: NodeJS.Signals | null}>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(limit)
      resolve({code, signal})
    }),
  )
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await ended
  })
  return {child, stderr: () => stderr, ended}
}

/** Boards stored by the running sweep so far; 0 until its database and tables exist. */
function storedBoards(file: string): number {
  if (!existsSync(file)) return 0
  const db = new Database(file, {readonly: true, timeout: 0})
  try {
    return db.prepare('SELECT count(*) FROM sweep_progress').pluck().get() as number
  } catch (error) {
    if (/no such table|SQLITE_BUSY|database is locked/.test(String(error))) return 0
    throw error
  } finally {
    db.close()
  }
}

beforeAll(async () => {
  mirror = await startSweepMirror({latencyMs: 40})
  directory = tempDir('jobagent-sweep-kill-directory-')
  directoryFile = writeTestDirectory(directory.path, {busy: false})
  const whole = home()
  const result = await sweep(whole)
  expect(result.code, result.stderr).toBe(0)
  expect(JSON.parse(result.stdout)).toMatchObject({status: 'done', boards: BOARDS})
  reference = await storedMatches(whole)
  expect(reference.length).toBeGreaterThan(0)
}, 30_000)

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

afterAll(async () => {
  await mirror?.close()
  directory?.cleanup()
})

describe('jobagent sweep killed with SIGKILL and run again', () => {
  it.each(killPoints(FUZZ_SEED))(
    "after %i boards are stored resumes to the uninterrupted sweep's matches",
    async (after) => {
      const dir = home()
      const file = join(dir, 'jobagent.db')
      const running = startSweep(dir)
      await pollUntil(() => running.child.exitCode !== null || storedBoards(file) >= after, `${after} boards stored`)
      running.child.kill('SIGKILL')
      // The kill landed inside the sweep: the process died of it, and no run was stored.
      expect(await running.ended, running.stderr()).toEqual({code: null, signal: 'SIGKILL'})

      const db = new Database(file)
      expect(db.pragma('integrity_check', {simple: true})).toBe('ok')
      expect(db.pragma('foreign_key_check')).toEqual([])
      expect(db.prepare('SELECT count(*) FROM runs').pluck().get()).toBe(0)
      expect(db.prepare('SELECT status FROM sweeps').pluck().all()).toEqual(['running'])
      const progress = db
        .prepare(
          `SELECT p.board, p.outcome, p.candidates, b.board AS state, b.etag, b.answer_hash, b.dead_until,
           json_array_length(b.candidates) AS kept
         FROM sweep_progress p LEFT JOIN sweep_boards b ON b.board = p.board`,
        )
        .all() as {
        board: string
        outcome: string
        candidates: number
        state: string | null
        etag: string | null
        answer_hash: string | null
        dead_until: string | null
        kept: number | null
      }[]
      expect(progress.length).toBeGreaterThanOrEqual(after)
      expect(progress.length).toBeLessThan(BOARDS)
      // Every board stored has all of its state: an answered one its validator or hash and the candidates its
      // progress row counts, a dead one its rest; and no board has state without its progress row.
      for (const row of progress) {
        if (row.outcome === 'answered') {
          expect(row.state, row.board).toBe(row.board)
          expect(row.etag ?? row.answer_hash, row.board).not.toBeNull()
          expect(row.kept, row.board).toBe(row.candidates)
        }
        if (row.outcome === 'dead') expect(row.dead_until, row.board).not.toBeNull()
      }
      const stateOnly = db
        .prepare('SELECT board FROM sweep_boards WHERE board NOT IN (SELECT board FROM sweep_progress)')
        .pluck()
        .all()
      expect(stateOnly).toEqual([])
      db.close()

      const resumed = await sweep(dir)
      expect(resumed.code, resumed.stderr).toBe(0)
      expect(JSON.parse(resumed.stdout)).toMatchObject({status: 'done', resumed: true, boards: BOARDS})
      expect(await storedMatches(dir)).toEqual(reference)
    },
  )
})
