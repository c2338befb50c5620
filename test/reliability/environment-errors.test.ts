import {spawn} from 'node:child_process'
import {chmodSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {type CliResult, ROOT, runCli, tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'
import {mountSmallFilesystem, tmpfsUnavailable} from '../helpers/tmpfs.js'

/**
 * A read-only, missing, misshapen or foreign data dir is the environment's doing: the CLI names the path and
 * what to do and exits 1, and never calls it a bug (before, these ended in "This is a bug in jobagent" or exit 2).
 */
const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

function scratch(): string {
  const dir = tempDir('jobagent-environment-')
  cleanups.push(dir.cleanup)
  return dir.path
}

/** A file source, so a run that gets past its checks never reaches a public board. */
function noBoards(dir: string): string {
  const jobs = join(dir, 'jobs.json')
  writeFileSync(jobs, '[]')
  return JSON.stringify([{type: 'file', path: jobs}])
}

function expectEnvironmentError(result: CliResult, message: string, hint: string): void {
  expect(result.stderr).toContain(`Error: ${message}`)
  expect(result.stderr).toContain(`Hint: ${hint}`)
  expect(result.stderr).not.toMatch(/bug|unexpected failure| {4}at /)
  expect(result.code).toBe(1)
}

describe.skipIf(tmpfsUnavailable !== undefined)('a read-only data dir (a tmpfs remounted read-only)', () => {
  it('run, status, export-csv and config set exit 1 naming the path and "read-only file system"', async () => {
    const disk = mountSmallFilesystem(4096)
    cleanups.push(disk.unmount)
    const home = join(disk.path, 'home')
    const cli = (...args: string[]) => runCommandLine(args, {home})
    expect((await cli('config', 'set', 'sources', noBoards(scratch()))).code).toBe(0)
    expect(
      (
        await cli(
          'apply',
          'https://example.org/a',
          '--title',
          'T',
          '--company',
          'C',
          '--location',
          'L',
          '--source',
          's',
        )
      ).code,
    ).toBe(0)
    const config = readFileSync(join(home, 'config.json'))
    disk.remountReadOnly()
    const hint = 'remount it read-write, or point JOBAGENT_HOME at a writable directory'

    expectEnvironmentError(await cli('run'), `cannot create ${join(home, 'run.lock')}: read-only file system`, hint)
    expectEnvironmentError(await cli('status'), `cannot open ${join(home, 'jobagent.db')}: read-only file system`, hint)
    expectEnvironmentError(
      await cli('export-csv'),
      `cannot open ${join(home, 'jobagent.db')}: read-only file system`,
      hint,
    )
    expectEnvironmentError(
      await cli('config', 'set', 'mode', 'development'),
      `cannot write ${join(home, 'config.json')}: read-only file system`,
      hint,
    )
    expect(readFileSync(join(home, 'config.json')).equals(config)).toBe(true)
  })
})

describe('a data dir that is not a usable directory', () => {
  it('JOBAGENT_HOME naming a file: every command exits 1 saying a file is in the way', async () => {
    const file = join(scratch(), 'not-a-dir')
    writeFileSync(file, 'x')
    const hint = `move ${file} away, or point JOBAGENT_HOME at a directory`
    for (const args of [['status'], ['run'], ['export-csv']]) {
      const result = await runCommandLine(args, {home: file})
      expectEnvironmentError(result, `cannot create the directory ${file}: a file of that name is in the way`, hint)
    }
    const set = await runCommandLine(['config', 'set', 'mode', 'development'], {home: file})
    expectEnvironmentError(
      set,
      `cannot read ${join(file, 'config.json')}: a part of the path is a file, not a directory`,
      'move that file away, or point JOBAGENT_HOME at a directory',
    )
  })

  it('JOBAGENT_HOME naming a file or a path below one: the shipment readers name the file, not a missing import', async () => {
    const file = join(scratch(), 'not-a-dir')
    writeFileSync(file, 'x')
    const hint = `move ${file} away, or point JOBAGENT_HOME at a directory`
    for (const home of [file, join(file, 'jobagent')]) {
      for (const args of [
        ['shipment', 'show', 'X'],
        ['shipment', 'history', 'X'],
      ]) {
        const result = await runCommandLine(args, {home, env: {HOME: scratch()}})
        expect(result.stderr).toMatch(/^Error: metadata store \(sqlite\) is unavailable: cannot open the directory/)
        expectEnvironmentError(result, '', hint)
        expect(result.stderr).toContain(`cannot open the directory ${file}: a file of that name is in the way\n`)
        expect(result.stderr).not.toContain('import shipments first')
      }
    }
  })

  it('JOBAGENT_HOME below a file (ENOTDIR): exit 1 naming the directory', async () => {
    const file = join(scratch(), 'not-a-dir')
    writeFileSync(file, 'x')
    const home = join(file, 'jobagent')
    for (const args of [['status'], ['apply', 'https://example.org/a', '--title', 'T', '--company', 'C']]) {
      expectEnvironmentError(
        await runCommandLine(args, {home}),
        `cannot create the directory ${home}: a part of the path is a file, not a directory`,
        'move that file away, or point JOBAGENT_HOME at a directory',
      )
    }
  })

  it('a directory where run.lock, config.json or jobagent.db belongs (EISDIR): exit 1 naming it', async () => {
    const home = scratch()
    expect((await runCommandLine(['config', 'set', 'sources', noBoards(scratch())], {home})).code).toBe(0)
    mkdirSync(join(home, 'run.lock'))
    expectEnvironmentError(
      await runCommandLine(['run'], {home}),
      `cannot read the run lock ${join(home, 'run.lock')}: it is a directory`,
      `move the directory ${join(home, 'run.lock')} away or use another path`,
    )
    mkdirSync(join(home, 'jobagent.db'))
    expectEnvironmentError(
      await runCommandLine(['status'], {home}),
      `cannot open ${join(home, 'jobagent.db')}: it is a directory`,
      `move the directory ${join(home, 'jobagent.db')} away or use another path`,
    )
    const other = scratch()
    mkdirSync(join(other, 'config.json'))
    expectEnvironmentError(
      await runCommandLine(['config', 'list'], {home: other}),
      `cannot read ${join(other, 'config.json')}: it is a directory`,
      `move the directory ${join(other, 'config.json')} away or use another path`,
    )
  })
})

/** The built CLI as the unprivileged user `nobody`, for whom permissions apply (root passes them all). */
function runAsNobody(args: string[], home: string): Promise<CliResult> {
  return runCli(args, {home, user: {uid: 65534, gid: 65534}})
}

describe.skipIf(process.getuid?.() !== 0)('a data dir the user may not write (as nobody)', () => {
  it('status, run and config set exit 1 with "permission denied" naming the file', async () => {
    const base = scratch()
    chmodSync(base, 0o755)
    const home = join(base, 'home')
    mkdirSync(home, {mode: 0o755})
    const hint = (path: string) => `check the owner and permissions of ${path} and its directory (ls -ld)`
    const db = join(home, 'jobagent.db')
    expectEnvironmentError(await runAsNobody(['status'], home), `cannot create ${db}: permission denied`, hint(db))
    const lock = join(home, 'run.lock')
    expectEnvironmentError(await runAsNobody(['run'], home), `cannot create ${lock}: permission denied`, hint(lock))
    const config = join(home, 'config.json')
    expectEnvironmentError(
      await runAsNobody(['config', 'set', 'mode', 'development'], home),
      `cannot write ${config}: permission denied`,
      hint(config),
    )
  })
})

describe('too many open files (EMFILE)', () => {
  it('the durable writer names the file and says what to do, in a process out of file descriptors', async () => {
    const dir = scratch()
    const module = join(ROOT, 'dist/src/storage/durable-file.js')
    // Opens files until the process limit refuses one, then writes: the error is the operating system's own.
    const script = `
      import {openSync} from 'node:fs'
      const {writeFileDurably} = await import(${JSON.stringify(module)})
      try { for (;;) openSync('/dev/null', 'r') } catch (error) { if (error.code !== 'EMFILE') throw error }
      try { writeFileDurably(${JSON.stringify(join(dir, 'out.csv'))}, 'a,b\\n') } catch (error) {
        process.stdout.write(JSON.stringify({message: error.message, hint: error.hint, kind: error.kind}))
      }`
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn('sh', [
        '-c',
        'ulimit -n 64 && exec "$0" --input-type=module -e "$1"',
        process.execPath,
        script,
      ])
      let stdout = ''
      child.stdout.on('data', (chunk) => {
        stdout += chunk
      })
      child.on('error', reject)
      child.on('close', () => resolve(stdout))
    })
    expect(JSON.parse(output)).toEqual({
      message: `cannot write ${join(dir, 'out.csv')}: too many open files`,
      hint: 'raise the limit of open files (ulimit -n) or close other programs, then try again',
      kind: 'unavailable',
    })
  })
})
