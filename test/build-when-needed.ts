import {execFileSync} from 'node:child_process'
import {existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'
import {expect} from 'vitest'
import {ROOT} from './helpers/cli.js'

// A setup file (vitest.config.ts): before each test file that runs the built CLI or reads dist/, the build is
// brought up to date, once per change of the sources; every other test file runs from the sources and never waits
// for a build.

/** What the build reads: a change to any of them makes dist/ out of date. */
const BUILD_INPUTS = ['commands', 'src', 'bin', 'scripts', 'package.json', 'tsconfig.json', 'tsconfig.build.json']
const DIST = join(ROOT, 'dist')
/** The build's last step writes the manifest, so a build that stopped halfway leaves it older than the sources. */
const MANIFEST = join(ROOT, 'oclif.manifest.json')
/** Held by the one test worker that checks and builds; the others wait for it. */
const LOCK = join(ROOT, '.test-build.lock')
/** A lock older than this was left by a run that was killed. */
const STALE_LOCK_MS = 10 * 60_000

/**
 * What marks a test file that needs the build: the helpers that spawn bin/run.js (runCli, BIN, BUILT_CLI,
 * serveBuilt, the web page harness) or a path into dist/.
 */
const NEEDS_BUILD = /\b(?:runCli|BIN|BUILT_CLI|serveBuilt)\b|web-harness|['"/]dist\//

const testFile = expect.getState().testPath
// Before the test file is even loaded: some read dist/ as they load.
if (testFile !== undefined && NEEDS_BUILD.test(readFileSync(testFile, 'utf8'))) await buildWhenOutOfDate()

/** Test workers take turns through a lock directory: one builds, the others then find dist/ current. */
async function buildWhenOutOfDate(): Promise<void> {
  await takeLock()
  try {
    if (outOfDate()) execFileSync('npm', ['run', 'build'], {cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe']})
  } finally {
    rmSync(LOCK, {recursive: true, force: true})
  }
}

async function takeLock(): Promise<void> {
  for (;;) {
    try {
      mkdirSync(LOCK)
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const held = statSync(LOCK, {throwIfNoEntry: false})
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) rmSync(LOCK, {recursive: true, force: true})
      await sleep(200)
    }
  }
}

function outOfDate(): boolean {
  if (!existsSync(join(DIST, 'src/cli/oclif.js'))) return true
  const sources = Math.max(...BUILD_INPUTS.map((input) => newest(join(ROOT, input))))
  return newest(DIST) < sources || statSync(MANIFEST).mtimeMs < sources
}

/** The latest modification time of a file, or of any file under a directory. */
function newest(path: string): number {
  const stat = statSync(path, {throwIfNoEntry: false})
  if (stat === undefined) return 0
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))))
}
