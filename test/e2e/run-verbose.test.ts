import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {type CliResult, tempDir} from '../helpers/cli.js'
import {parseLogLine} from '../helpers/memory-log.js'
import {type MockServer, sendJson, serveBody, startMockServer} from '../helpers/mock-board.js'
import {runCommandLine} from '../helpers/run-command.js'
import {fixtureText} from '../helpers/source-fixtures.js'

let boards: MockServer
let home: ReturnType<typeof tempDir>

beforeAll(async () => {
  boards = await startMockServer({
    '/good/api/remote-jobs': serveBody(fixtureText('remotive.json')),
    '/broken/api/remote-jobs': (_req, res) => sendJson(res, {error: 'gone'}, 404),
  })
})
afterAll(() => boards.close())
beforeEach(() => {
  home = tempDir('jobagent-verbose-')
})
afterEach(() => home.cleanup())

function configure(names: string[]) {
  const sources = names.map((name) => ({type: 'remotive', name, url: `${boards.url}/${name}`}))
  writeFileSync(join(home.path, 'config.json'), JSON.stringify({sources}), {mode: 0o600})
}

/** Every line of stderr is a line of the run log, in its fixed format. */
const logLines = (result: CliResult) => result.stderr.trimEnd().split('\n').map(parseLogLine)

describe('run --verbose', () => {
  it("adds each step's detail to a successful run: the board's request, what the criteria kept, deduplication", async () => {
    configure(['good'])

    const quiet = await runCommandLine(['run'], {home: home.path})
    const verbose = await runCommandLine(['run', '--verbose'], {home: home.path})

    expect(quiet.code, quiet.stderr).toBe(0)
    expect(verbose.code, verbose.stderr).toBe(0)
    expect(logLines(quiet).filter((line) => line.level === 'DEBUG')).toEqual([])
    const debug = logLines(verbose).filter((line) => line.level === 'DEBUG')
    expect(debug).toContainEqual(
      expect.objectContaining({
        name: 'jobagent.sources.good',
        message: expect.stringMatching(
          new RegExp(`^GET ${boards.url}/good/api/remote-jobs\\S*: HTTP 200, [\\d.]+ KB in \\d+ ms$`),
        ),
      }),
    )
    expect(debug).toContainEqual(
      expect.objectContaining({
        name: 'jobagent.sources.good',
        message: expect.stringMatching(/^\d+ jobs returned, \d+ kept by the criteria$/),
      }),
    )
    expect(debug).toContainEqual(
      expect.objectContaining({
        message: expect.stringMatching(
          /^\d+ jobs kept by the criteria, \d+ after deduplication, \d+ after the salary floor$/,
        ),
      }),
    )
  })

  it("writes a failed board's stack as lines of the log, one frame each, not one line of escaped breaks", async () => {
    configure(['good', 'broken'])

    const result = await runCommandLine(['run', '--verbose'], {home: home.path})

    expect(result.code, result.stderr).toBe(0)
    const detail = logLines(result).filter((line) => line.message.startsWith('failure detail: '))
    expect(detail.length).toBeGreaterThanOrEqual(2)
    expect(detail.every((line) => line.level === 'DEBUG' && line.name === 'jobagent.sources.broken')).toBe(true)
    expect(detail[0]?.message).toContain('HTTP 404')
    expect(detail.slice(1).some((line) => line.message.startsWith('failure detail:     at '))).toBe(true)
    expect(result.stderr).not.toContain('\\n    at ')
  })
})
