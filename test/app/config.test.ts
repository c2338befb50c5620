import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {loadConfig, resolvePaths} from '../../src/app/config.js'
import {AppContext} from '../../src/app/context.js'
import {criteriaFrom} from '../../src/app/shared-search.js'
import {ConfigurationError, UnavailableError} from '../../src/core/errors.js'
import {tempDir} from '../helpers/cli.js'

let home: ReturnType<typeof tempDir>
let env: Record<string, string>

function writeConfig(content: unknown): string {
  const file = join(home.path, 'config.json')
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content), {mode: 0o600})
  return file
}

function configError(work: () => unknown): ConfigurationError {
  try {
    work()
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError)
    return error as ConfigurationError
  }
  throw new Error('expected a configuration error')
}

beforeEach(() => {
  home = tempDir('jobagent-config-')
  env = {JOBAGENT_HOME: home.path}
})

afterEach(() => {
  vi.unstubAllEnvs()
  home.cleanup()
})

describe('the effective configuration', () => {
  it('is the built-in defaults when there is no file', () => {
    const {config} = loadConfig({env})
    expect(config.mode).toBe('production')
    expect(config.server).toEqual({host: '127.0.0.1', port: 8080, allowed_hosts: [], log_level: 'INFO'})
    expect(config.notify).toEqual({urls: [], max_items: 20})
    expect(config.search.tags).toEqual([])
    expect(config.search).toMatchObject({min_salary: null, fx: {}})
    expect(config.profile).toEqual({roles: [], skills: {}, avoid: [], seniority: 'any', home: null, locations: []})
    expect(config.followups).toEqual({after_days: 7, ghosted_after_days: 21, after_interview_days: 5})
    expect(config.run).toEqual({healthcheck_url: null, closed_after_runs: 2, dead_after_runs: 3})
    expect(config.sources.map((source) => source.type)).toEqual([
      'remoteok',
      'remotive',
      'arbeitnow',
      'jobicy',
      'himalayas',
      'weworkremotely',
    ])
    expect(config.shipments.stale_after_seconds).toBe(900)
    expect(config.shipments.events).toEqual({interval_ms: 1000, max_streams: 1000})
  })

  it('takes the file over the defaults, merging nested keys', () => {
    writeConfig({mode: 'development', server: {port: 9000}, search: {tags: ['node']}, sources: [{type: 'hackernews'}]})
    const {config} = loadConfig({env})
    expect(config.mode).toBe('development')
    expect(config.server).toEqual({host: '127.0.0.1', port: 9000, allowed_hosts: [], log_level: 'INFO'})
    expect(config.search).toMatchObject({tags: ['node'], keywords: [], remote_only: false})
    expect(config.sources).toEqual([{type: 'hackernews'}])
  })

  it('takes the environment over the file', () => {
    writeConfig({mode: 'development', server: {host: '0.0.0.0', port: 9000}, notify: {urls: ['log://'], max_items: 5}})
    const {config} = loadConfig({
      env: {
        ...env,
        JOBAGENT_MODE: 'production',
        JOBAGENT_PORT: '9100',
        JOBAGENT_NOTIFY_URLS: 'log://, ntfy://a,',
        JOBAGENT_LOG_LEVEL: 'error',
      },
    })
    expect(config.mode).toBe('production')
    expect(config.server).toEqual({host: '0.0.0.0', port: 9100, allowed_hosts: [], log_level: 'ERROR'})
    expect(config.notify).toEqual({urls: ['log://', 'ntfy://a'], max_items: 5})
  })

  it('takes command-line overrides over the environment', () => {
    writeConfig({server: {port: 9000}})
    const {config} = loadConfig({
      env: {...env, JOBAGENT_PORT: '9100', JOBAGENT_MODE: 'production'},
      overrides: {server: {port: 9200}, mode: 'development'},
    })
    expect(config.server.port).toBe(9200)
    expect(config.mode).toBe('development')
  })

  it('ignores empty environment variables', () => {
    writeConfig({server: {host: 'localhost', port: 9000}})
    const {config} = loadConfig({
      env: {
        ...env,
        JOBAGENT_HOST: '',
        JOBAGENT_PORT: '',
        JOBAGENT_LOG_LEVEL: '',
        JOBAGENT_SHIPMENT_METADATA_POOL_SIZE: '',
      },
    })
    expect(config.shipments.metadata.pool_size).toBe(10)
    expect(config.server).toEqual({host: 'localhost', port: 9000, allowed_hosts: [], log_level: 'INFO'})
  })

  it('refuses an invalid environment value, naming the variable', () => {
    expect(configError(() => loadConfig({env: {...env, JOBAGENT_MODE: 'dev'}})).message).toContain('JOBAGENT_MODE')
  })

  it('leaves a JOBAGENT_PORT that is no port to what uses the port, which refuses it by name', () => {
    writeConfig({server: {port: 9000}})
    const badPort = {...env, JOBAGENT_PORT: 'eighty'}
    expect(loadConfig({env: badPort}).config.server.port).toBe(9000)
    const context = new AppContext({env: badPort})
    expect(context.config.mode).toBe('production')
    const error = configError(() => context.serverConfig())
    expect(error.message).toBe('JOBAGENT_PORT must be a port number (0-65535), got "eighty"')
    // --port wins over the variable, which then is not used at all.
    expect(new AppContext({env: badPort, overrides: {server: {port: 9200}}}).serverConfig().port).toBe(9200)
    expect(new AppContext({env: {...env, JOBAGENT_PORT: '9100'}}).serverConfig().port).toBe(9100)
  })
})

describe('where the files live', () => {
  it('puts config.json and the data files directly in JOBAGENT_HOME', () => {
    const {paths, config} = loadConfig({env})
    expect(paths).toEqual({
      configFile: join(home.path, 'config.json'),
      dataDir: home.path,
      trackerDb: join(home.path, 'jobagent.db'),
    })
    expect(config.shipments.metadata.url).toBe(`sqlite://${join(home.path, 'shipments.db')}`)
  })

  it('follows the XDG directories without JOBAGENT_HOME', () => {
    vi.stubEnv('XDG_CONFIG_HOME', join(home.path, 'xdg-config'))
    vi.stubEnv('XDG_DATA_HOME', join(home.path, 'xdg-data'))
    expect(resolvePaths({})).toEqual({
      configDir: join(home.path, 'xdg-config', 'jobagent'),
      dataDir: join(home.path, 'xdg-data', 'jobagent'),
    })
    const {paths} = loadConfig({env: {}})
    expect(paths.configFile).toBe(join(home.path, 'xdg-config', 'jobagent', 'config.json'))
    expect(paths.trackerDb).toBe(join(home.path, 'xdg-data', 'jobagent', 'jobagent.db'))
  })
})

describe('a config file that cannot be used', () => {
  it('is refused when it is not JSON, naming the file, and left untouched', () => {
    const file = writeConfig('{"mode": "development",,}')
    const error = configError(() => loadConfig({env}))
    expect(error.message).toContain(file)
    expect(error.message).toContain('not valid JSON')
    expect(readFileSync(file, 'utf8')).toBe('{"mode": "development",,}')
  })

  it('is refused when a value is invalid, naming the key, and left untouched', () => {
    const file = writeConfig({server: {port: 'x'}})
    const error = configError(() => loadConfig({env}))
    expect(error.message).toContain(file)
    expect(error.message).toContain('server.port must be an integer like 8080')
    expect(error.details).toEqual([expect.objectContaining({field: 'server.port'})])
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({server: {port: 'x'}})
  })

  it('refuses run.dead_after_runs below 1, naming the key', () => {
    writeConfig({run: {dead_after_runs: 0}})
    expect(configError(() => loadConfig({env})).details).toEqual([
      expect.objectContaining({field: 'run.dead_after_runs'}),
    ])
  })

  it('refuses a blank entry in a list of words, which would match every job or none', () => {
    for (const [key, list] of [
      ['search.tags', {search: {tags: ['go', ' ']}}],
      ['search.keywords', {search: {keywords: ['']}}],
      ['profile.avoid', {profile: {avoid: ['\t']}}],
    ] as const) {
      writeConfig(list)
      const error = configError(() => loadConfig({env}))
      expect(error.message, key).toMatch(new RegExp(`${key.replace('.', '\\.')}\\[\\d\\] must not be empty`))
    }
  })

  it('takes server.allowed_hosts as host names or bracketed IPv6 addresses, and refuses one with a scheme or port', () => {
    writeConfig({server: {allowed_hosts: ['jobagent.lan', '192.168.1.5', '[fd00::5]']}})
    expect(loadConfig({env}).config.server.allowed_hosts).toEqual(['jobagent.lan', '192.168.1.5', '[fd00::5]'])
    for (const entry of ['http://jobagent.lan', 'jobagent.lan:8080', '']) {
      const file = writeConfig({server: {allowed_hosts: ['ok.lan', entry]}})
      const error = configError(() => loadConfig({env}))
      expect(error.message).toContain(file)
      expect(error.details).toEqual([expect.objectContaining({field: 'server.allowed_hosts[1]'})])
    }
  })

  it('is refused when it holds unknown keys, naming each one and the keys allowed there', () => {
    writeConfig({mode: 'production', colour: 'blue', search: {tagz: []}, sources: [{type: 'rss', urll: 'x'}]})
    const error = configError(() => loadConfig({env}))
    expect(error.message).toContain('"colour" is not a known key (top-level keys are: mode, search, sources,')
    expect(error.message).toContain('"search.tagz" is not a known key (keys under search are: tags, keywords,')
    expect(error.message).toContain('"sources[0].urll" is not a known key')
    expect(error.details?.map((detail) => detail.field).sort()).toEqual(['colour', 'search.tagz', 'sources[0].urll'])
  })

  it('lists the allowed values of a setting that has a fixed set', () => {
    writeConfig({mode: 'staging'})
    expect(configError(() => loadConfig({env})).message).toContain('mode must be one of: production, development')
  })

  it('is refused when it is a directory, as a problem of the environment (exit 1), not of the configuration', () => {
    mkdirSync(join(home.path, 'config.json'))
    expect(() => loadConfig({env})).toThrow(UnavailableError)
    expect(() => loadConfig({env})).toThrow(`cannot read ${join(home.path, 'config.json')}: it is a directory`)
  })
})

describe('the search criteria of a run or a request', () => {
  it('takes the given tags over the configured ones, ignoring blank tags, and keeps the configured ones without any', () => {
    writeConfig({search: {tags: ['go', 'rust']}})
    const {config} = loadConfig({env})
    expect(config.search.tags).toEqual(['go', 'rust'])
    expect(criteriaFrom(config.search, {tags: ['typescript', ' node ']}).tags).toEqual(['typescript', 'node'])
    for (const tags of [undefined, [], [''], [' ', '']]) {
      expect(criteriaFrom(config.search, {tags}).tags, JSON.stringify(tags)).toEqual(config.search.tags)
    }
  })
})
