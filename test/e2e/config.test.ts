import {existsSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {type CliResult, tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'

let home: ReturnType<typeof tempDir>
let configFile: string
const cli = (...args: string[]) => runCommandLine(args, {home: home.path})

function expectUserError(result: CliResult, code: number, ...fragments: string[]): void {
  expect(result.code, result.stderr).toBe(code)
  for (const fragment of fragments) expect(result.stderr).toContain(fragment)
  expect(result.stderr).not.toContain('    at ')
}

beforeEach(() => {
  home = tempDir('jobagent-e2e-config-')
  configFile = join(home.path, 'config.json')
})

afterEach(() => {
  home.cleanup()
})

describe('jobagent config', () => {
  it('prints where the config file and the data live', async () => {
    const plain = await cli('config', 'path')
    expect(plain.code, plain.stderr).toBe(0)
    expect(plain.stdout).toBe(`config file  ${configFile}\ndata dir     ${home.path}\n`)
    // One bare path for scripts: "$EDITOR" "$(jobagent config path config)".
    expect((await cli('config', 'path', 'config')).stdout).toBe(`${configFile}\n`)
    expect((await cli('config', 'path', 'data')).stdout).toBe(`${home.path}\n`)
    expectUserError(await cli('config', 'path', 'logs'), 2, 'logs', 'config, data')
    const json = await cli('config', 'path', '--json')
    expect(JSON.parse(json.stdout)).toEqual({config: configFile, data: home.path})
  })

  it('sets, gets, lists and unsets settings in a file only the user can read', async () => {
    expect((await cli('config', 'list')).stdout).toBe('(no settings; built-in defaults apply)\n')

    const set = await cli('config', 'set', 'mode', 'development')
    expect(set.code, set.stderr).toBe(0)
    expect(set.stdout).toBe('Set mode.\n')
    expect(statSync(configFile).mode & 0o777).toBe(0o600)
    expect((await cli('config', 'set', 'search.tags', '["node","rust"]')).code).toBe(0)

    expect((await cli('config', 'get', 'mode')).stdout).toBe('development\n')
    expect(JSON.parse((await cli('config', 'get', 'search.tags', '--json')).stdout)).toEqual(['node', 'rust'])
    expect(JSON.parse((await cli('config', 'list', '--json')).stdout)).toEqual({
      mode: 'development',
      search: {tags: ['node', 'rust']},
    })

    const unset = await cli('config', 'unset', 'mode')
    expect(unset.stdout).toBe('Unset mode.\n')
    expect(JSON.parse(readFileSync(configFile, 'utf8'))).toEqual({search: {tags: ['node', 'rust']}})
    const defaultMode = await cli('config', 'get', 'mode')
    expect(defaultMode.code, defaultMode.stderr).toBe(0)
    expect(defaultMode.stdout).toBe('production\n')
  })

  it('shows the default in force for a key the file does not set, and says it is the default', async () => {
    expect((await cli('config', 'set', 'mode', 'development')).code).toBe(0)
    expect((await cli('config', 'unset', 'mode')).code).toBe(0)

    const human = await cli('config', 'get', 'mode')
    expect(human.code, human.stderr).toBe(0)
    expect(human.stdout).toBe('production\n')
    expect(human.stderr).toBe(`(the built-in default; mode is not set in ${configFile})\n`)
    const json = await cli('config', 'get', 'mode', '--json')
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toBe('production')
    expect(json.stderr).toBe('')
    // A section the file sets in part: the keys it leaves out have their defaults.
    expect((await cli('config', 'set', 'search.tags', 'node')).code).toBe(0)
    expect(JSON.parse((await cli('config', 'get', 'search.keywords', '--json')).stdout)).toEqual([])
    // false and 0 are values: printed as JSON like any other.
    expect(JSON.parse((await cli('config', 'get', 'search.remote_only', '--json')).stdout)).toBe(false)
    expect((await cli('config', 'set', 'notify.min_score', '0')).code).toBe(0)
    expect(JSON.parse((await cli('config', 'get', 'notify.min_score', '--json')).stdout)).toBe(0)
  })

  it('answers a refused value with what the key takes, not with the command just run', async () => {
    const mode = await cli('config', 'set', 'mode', 'staging')
    expectUserError(mode, 2, 'mode must be one of: production, development')
    expect(mode.stderr).toContain('Hint: set one of them, for example: jobagent config set mode production\n')
    expect(mode.stderr).not.toContain('config set mode staging')
    const flag = await cli('config', 'set', 'search.remote_only', 'maybe')
    expect(flag.stderr).toContain('Hint: set true or false, for example: jobagent config set search.remote_only true\n')
  })

  it('refuses a blank entry of a list given as text as it refuses one given as JSON, naming key and position', async () => {
    for (const value of ['a,,b', '["a","","b"]', 'a, ,b']) {
      const result = await cli('config', 'set', 'search.tags', value)
      expectUserError(
        result,
        2,
        'search.tags[1] must not be empty',
        'Hint: leave out the blank entry at position 1 of search.tags (counted from 0)',
      )
    }
    expect(existsSync(configFile)).toBe(false)
    expect((await cli('config', 'set', 'search.tags', 'a, b')).code).toBe(0)
    expect(JSON.parse((await cli('config', 'get', 'search.tags', '--json')).stdout)).toEqual(['a', 'b'])
  })

  it('masks secrets in list and get unless --show-secrets is given', async () => {
    const urls = JSON.stringify([
      'https://hooks.slack.com/services/T0/B0/SECRETTOKEN',
      'mailto://me:PASSWORD@smtp.example.org?to=me@example.org',
    ])
    expect((await cli('config', 'set', 'notify.urls', urls)).code).toBe(0)
    const listed = await cli('config', 'list')
    expect(listed.stdout).toContain('https://hooks.slack.com/services/***/***/***')
    expect(listed.stdout).toContain('mailto://me:***@smtp.example.org?to=***')
    expect(listed.stdout).not.toMatch(/SECRETTOKEN|PASSWORD/)
    expect((await cli('config', 'get', 'notify.urls')).stdout).not.toMatch(/SECRETTOKEN|PASSWORD/)
    expect((await cli('config', 'list', '--show-secrets')).stdout).toContain('SECRETTOKEN')
  })

  it('refuses invalid values and unknown keys, naming the key, and leaves the file as it was', async () => {
    await cli('config', 'set', 'server.port', '9090')
    const before = readFileSync(configFile, 'utf8')
    expectUserError(await cli('config', 'set', 'mode', 'dev'), 2, 'mode must be one of: production, development')
    expectUserError(
      await cli('config', 'set', 'server.port', 'x'),
      2,
      'server.port must be an integer like 8080',
      configFile,
    )
    expectUserError(
      await cli('config', 'set', 'search.tags', '5'),
      2,
      'search.tags must be an array like ["typescript", "rust"]',
    )
    expectUserError(await cli('config', 'set', 'search.foo', '1'), 2, 'unknown configuration key "search.foo"')
    expectUserError(
      await cli('config', 'set', 'search.tags', '[bad'),
      2,
      'cannot set search.tags: the value is not valid JSON',
      'comma-separated text',
    )
    expectUserError(
      await cli('config', 'set', 'shipments.events.max_streams', '0'),
      2,
      'shipments.events.max_streams must be >= 1',
    )
    expectUserError(
      await cli('config', 'get', 'colour'),
      2,
      'unknown configuration key "colour"',
      'Hint: top-level keys',
    )
    expect(readFileSync(configFile, 'utf8')).toBe(before)
  })

  it('refuses sources that run would refuse, naming the entry, and leaves the file byte for byte', async () => {
    await cli('config', 'set', 'sources', '[{"type":"remoteok"}]')
    const before = readFileSync(configFile)
    const refused: [string, string][] = [
      ['[{"type":"greenhouse"}]', 'sources[0].boards is required for greenhouse'],
      ['[{"type":"remoteok"},{"type":"remoteok"}]', 'sources[1] repeats the source remoteok of sources[0]'],
      ['[{"type":"rss","url":"file:///etc/passwd"}]', 'sources[0].url must be an absolute http(s) URL'],
    ]
    for (const [value, reason] of refused) {
      expectUserError(await cli('config', 'set', 'sources', value), 2, reason, configFile)
      expect(readFileSync(configFile).equals(before), value).toBe(true)
    }
    // What config set refuses, run refuses with the same words when the file was edited by hand.
    writeFileSync(configFile, JSON.stringify({sources: [{type: 'remoteok'}, {type: 'greenhouse'}]}))
    expectUserError(await cli('run', '--source', 'greenhouse'), 2, 'sources[1].boards is required for greenhouse')
  })

  it('refuses to run on a config file that is not JSON, naming it and leaving it untouched', async () => {
    writeFileSync(configFile, '{\n  "mode": "development",\n}')
    expectUserError(await cli('status'), 2, `${configFile} is not valid JSON`, '(line 3, column 1)')
    expectUserError(await cli('config', 'set', 'mode', 'production'), 2, configFile)
    expect(readFileSync(configFile, 'utf8')).toBe('{\n  "mode": "development",\n}')
  })

  it('repairs a file with unknown keys by the steps its hint names, key by key', async () => {
    writeFileSync(configFile, JSON.stringify({mdoe: 'production', colr: 1}))
    const status = await cli('status')
    expectUserError(status, 2, '"mdoe" is not a known key', 'Hint: fix it with: jobagent config unset mdoe')
    // Setting another key cannot help while the file is invalid: the refusal says what to fix first.
    expectUserError(
      await cli('config', 'set', 'mode', 'development'),
      2,
      "fix the file's problems first",
      'jobagent config unset colr',
    )
    const first = await cli('config', 'unset', 'mdoe')
    expect(first.code, first.stderr).toBe(0)
    expect(first.stderr).toContain('still has problems: "colr" is not a known key')
    expect(JSON.parse(readFileSync(configFile, 'utf8'))).toEqual({colr: 1})
    const second = await cli('config', 'unset', 'colr')
    expect([second.code, second.stderr]).toEqual([0, ''])
    expect((await cli('config', 'set', 'mode', 'development')).code).toBe(0)
    expect((await cli('status')).code).toBe(0)
  })

  it('repairs a file with two invalid values by setting each, as the hint says, not by unsetting', async () => {
    writeFileSync(configFile, JSON.stringify({server: {port: 'abc'}, search: {tags: 5}}))
    // A set that fixes one of the file's problems is written, and names what is left.
    const first = await cli('config', 'set', 'server.port', '8080')
    expect(first.code, first.stderr).toBe(0)
    expect(first.stderr).toContain('still has problems: search.tags must be an array')
    expect(first.stderr).toContain('Hint: fix it with: jobagent config set search.tags <value>')
    // One that fixes nothing still waits for the file's problems.
    expectUserError(await cli('config', 'set', 'mode', 'development'), 2, "fix the file's problems first")
    const second = await cli('config', 'set', 'search.tags', 'typescript,node')
    expect([second.code, second.stderr]).toEqual([0, ''])
    expect(JSON.parse(readFileSync(configFile, 'utf8'))).toEqual({
      server: {port: 8080},
      search: {tags: ['typescript', 'node']},
    })
    expect((await cli('status')).code).toBe(0)
  })

  it('points at the whole list for a bad value inside one, with the nearest type', async () => {
    const typo = await cli('config', 'set', 'sources', '[{"type": "greenhous"}]')
    expectUserError(
      typo,
      2,
      'sources[0].type must be one of:',
      `Hint: did you mean "greenhouse"? set the whole list again with sources[0].type fixed: jobagent config set sources '<JSON list>'`,
    )
  })

  it('names the file to edit or remove when it is JSON but not an object', async () => {
    for (const content of ['[]', 'null', '"mode"']) {
      writeFileSync(configFile, content)
      for (const args of [['status'], ['config', 'unset', 'mode'], ['config', 'set', 'mode', 'development']]) {
        expectUserError(await cli(...args), 2, `${configFile} must hold a JSON object`, `remove it`)
      }
      expect(readFileSync(configFile, 'utf8')).toBe(content)
    }
  })

  it('refuses to run on a config file with an invalid value, naming the key', async () => {
    writeFileSync(configFile, JSON.stringify({server: {port: 'eighty'}}))
    expectUserError(
      await cli('status'),
      2,
      'server.port must be an integer like 8080',
      'jobagent config set server.port <value>',
    )
    expect((await cli('config', 'set', 'server.port', '8081')).code).toBe(0)
    expect((await cli('status')).code).toBe(0)
  })
})

describe('a server setting in the environment', () => {
  it('JOBAGENT_PORT that is no port breaks no other command; serve refuses it by name', async () => {
    const env = {JOBAGENT_PORT: 'abc'}
    const status = await runCommandLine(['status'], {home: home.path, env})
    expect(status.stderr).toBe('')
    expect(status.code).toBe(0)
    const list = await runCommandLine(['config', 'list'], {home: home.path, env})
    expect(list.code, list.stderr).toBe(0)

    const serve = await runCommandLine(['serve'], {home: home.path, env})
    expectUserError(serve, 2, 'Error: JOBAGENT_PORT must be a port number (0-65535), got "abc"')
  })
})
