import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {BIN, ROOT, runCli, tempDir} from '../helpers/cli.js'

/**
 * The directory of boards is read only by the commands that use it: the built CLI runs with the module recorder of
 * the benchmarks preloaded, which writes every module the process loaded; the modules that read the directory are
 * among them only for `boards find` and `boards directory`.
 */
const DIRECTORY_MODULES = ['dist/src/app/board-directory.js', 'dist/src/core/jobs/board-directory.js']

let home: ReturnType<typeof tempDir>
afterEach(() => home.cleanup())

async function loadedBy(args: string[]): Promise<string[]> {
  home = tempDir('jobagent-directory-loading-')
  const modules = join(home.path, 'modules.txt')
  const result = await runCli(args, {
    home: home.path,
    program: [process.execPath, '--import', join(ROOT, 'bench/module-recorder.js'), BIN],
    env: {JOBAGENT_BENCH_MODULES_FILE: modules},
  })
  expect(result.code, result.stderr).toBe(0)
  const loaded = readFileSync(modules, 'utf8')
  // A recorder that saw nothing would make the check pass vacuously.
  expect(loaded).toContain('/dist/src/cli/oclif.js')
  return DIRECTORY_MODULES.filter((module) => loaded.includes(module))
}

describe('the directory of boards', () => {
  it.each([[['--version']], [['status']], [['boards', 'list']]])('is not read by jobagent %j', async (args) => {
    expect(await loadedBy(args)).toEqual([])
  })

  it('is read by boards find', async () => {
    expect(await loadedBy(['boards', 'find', 'greenhouse:airbnb'])).toEqual(DIRECTORY_MODULES)
  })
})
