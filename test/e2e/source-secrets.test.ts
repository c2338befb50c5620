import {writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A board that fails every request with 500, so the run retries and reports it. */
async function failingBoard(): Promise<number> {
  const server: Server = createServer((_request, response) => response.writeHead(500).end('down'))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return (server.address() as AddressInfo).port
}

describe('credentials in source URLs', () => {
  it('are masked in the run log, the retry lines and the --json summary', async () => {
    const port = await failingBoard()
    const home = tempDir('jobagent-source-secrets-')
    cleanups.push(home.cleanup)
    const secrets = ['pw-9b1d', 'tok-4c2e', 'key-7a3f', 'apikey-1e8b', 'sig-5d6c', 'priv-2f0a']
    const sources = [
      {type: 'remoteok', url: `http://ops:pw-9b1d@127.0.0.1:${port}/api?token=tok-4c2e&key=key-7a3f&page=2`},
      {
        type: 'rss',
        name: 'feed',
        url: `http://127.0.0.1:${port}/feed?api_key=apikey-1e8b&signature=sig-5d6c&private_token=priv-2f0a&q=node`,
      },
    ]
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({sources}), {mode: 0o600})
    const result = await runCommandLine(['run', '--json', '--verbose'], {home: home.path})
    expect(result.code, result.stderr).toBe(1)
    // The log still says which request failed and how.
    expect(result.stderr).toContain(
      `from GET http://127.0.0.1:${port}/feed?api_key=***&signature=***&private_token=***&q=node`,
    )
    expect(result.stderr).toMatch(/WARNING \| jobagent\.sources\.rss:feed \|.*HTTP 500/)
    expect(result.stderr).toContain(`http://ops:***@127.0.0.1:${port}/api?token=***&key=***&page=2`)
    for (const secret of secrets) {
      expect(result.stderr, secret).not.toContain(secret)
      expect(result.stdout, secret).not.toContain(secret)
    }
    expect(JSON.parse(result.stdout).sources).toHaveLength(2)
  })
})
