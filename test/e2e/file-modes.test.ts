import {readdirSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {IMPORT_EXAMPLE_SHIPMENTS, tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'
import {serveBuilt} from '../helpers/serve.js'

/** The data dir is created 0700 and every file jobagent creates in it 0600, whichever command comes first. */
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A data dir that does not exist yet, below a fresh temporary directory. */
function freshHome(): string {
  const dir = tempDir('jobagent-modes-')
  cleanups.push(dir.cleanup)
  return join(dir.path, 'nested', 'jobagent')
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8)
const APPLY = ['apply', 'https://example.org/a', '--title', 'T', '--company', 'C', '--location', 'L', '--source', 's']

describe('file modes', () => {
  it.each([
    ['config set', ['config', 'set', 'mode', 'development']],
    ['apply', APPLY],
    ['status', ['status']],
  ])('%s creates the data dir and its parents 0700', async (_name, args) => {
    const home = freshHome()
    const result = await runCommandLine(args, {home})
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(mode(home)).toBe('700')
    expect(mode(join(home, '..'))).toBe('700')
  })

  it('the config file, jobagent.db, a default CSV export and shipments.db are created 0600', async () => {
    const home = freshHome()
    expect((await runCommandLine(['config', 'set', 'mode', 'development'], {home})).code).toBe(0)
    expect((await runCommandLine(APPLY, {home})).code).toBe(0)
    expect((await runCommandLine(['export-csv'], {home})).code).toBe(0)
    const shipments = await runCommandLine(IMPORT_EXAMPLE_SHIPMENTS, {home})
    expect(shipments.code).toBe(0)
    const files = readdirSync(home).sort()
    expect(files).toEqual([
      expect.stringMatching(/^applications-.*\.csv$/),
      'config.json',
      'jobagent.db',
      'shipments.db',
    ])
    for (const file of files) expect([file, mode(join(home, file))]).toEqual([file, '600'])
  })

  it("jobagent.db's -wal and -shm files are 0600 while the server has the database open", async () => {
    const home = freshHome()
    const server = await serveBuilt(home)
    cleanups.push(server.stop)
    const response = await fetch(`${server.url}/applications`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({title: 'T', company: 'C', location: 'L', url: 'https://example.org/a', source: 's'}),
    })
    expect(response.status).toBe(201)
    expect(mode(home)).toBe('700')
    for (const file of ['jobagent.db', 'jobagent.db-wal', 'jobagent.db-shm']) {
      expect([file, mode(join(home, file))]).toEqual([file, '600'])
    }
  })
})
