import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {loadConfig} from '../../src/app/config.js'
import {ConfigEditor} from '../../src/app/config-editor.js'
import {ConfigurationError, NotFoundError} from '../../src/core/errors.js'
import {tempDir} from '../helpers/cli.js'

let home: ReturnType<typeof tempDir>
let env: Record<string, string>
let file: string

function editor(): ConfigEditor {
  return new ConfigEditor(env)
}

function refusal(work: () => unknown): ConfigurationError {
  try {
    work()
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError)
    return error as ConfigurationError
  }
  throw new Error('expected the change to be refused')
}

beforeEach(() => {
  home = tempDir('jobagent-config-editor-')
  env = {JOBAGENT_HOME: home.path}
  file = join(home.path, 'config.json')
})

afterEach(() => {
  home.cleanup()
})

describe('changing settings', () => {
  it('writes the value as JSON when it parses and as text otherwise, in a file only the user can read', () => {
    editor().set('search.tags', '["node","typescript"]')
    editor().set('search.remote_only', 'true')
    editor().set('server.port', '9090')
    editor().set('server.host', '0.0.0.0')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      search: {tags: ['node', 'typescript'], remote_only: true},
      server: {port: 9090, host: '0.0.0.0'},
    })
    expect(loadConfig({env}).config.server).toEqual({host: '0.0.0.0', port: 9090, allowed_hosts: [], log_level: 'INFO'})
  })

  it('takes text for a list of strings as a comma-separated list, and keeps other text whole', () => {
    editor().set('search.tags', 'typescript, node')
    editor().set('notify.urls', 'ntfy://my-jobs')
    editor().set('server.host', '::1')
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      search: {tags: ['typescript', 'node']},
      notify: {urls: ['ntfy://my-jobs']},
      server: {host: '::1'},
    })
    // A value with a comma inside an item is given as JSON.
    editor().set('search.company_block_list', '["Acme, Inc."]')
    expect(editor().get('search.company_block_list').value).toEqual(['Acme, Inc.'])
  })

  it.each([
    ['profile', '{"skills": {"ts": 3},}', 'Expected double-quoted property name'],
    ['sources', '{bad', 'Expected property name'],
    ['search.min_salary', '{amount: 5}', 'Expected property name'],
    ['search.tags', '[bad', '"[bad" is not valid JSON'],
    ['search.tags', ' ["a",]', 'JSON'],
  ])('refuses %s = %s as invalid JSON, with the parser message, and writes nothing', (key, value, reason) => {
    editor().set('mode', 'development')
    const before = readFileSync(file)
    const error = refusal(() => editor().set(key, value))
    expect(error.message).toMatch(new RegExp(`^cannot set ${key}: the value is not valid JSON: `))
    expect(error.message).toContain(reason)
    expect(readFileSync(file).equals(before)).toBe(true)
  })

  it('sets a profile key by key and a salary floor, refusing what the schema does not allow, by name', () => {
    editor().set('profile.skills', '{"node.js": 2}')
    editor().set('profile.skills.typescript', '3')
    editor().set('profile.seniority', 'senior')
    editor().set('profile.locations', 'remote, europe')
    editor().set('profile.roles', 'backend engineer, sre')
    editor().set('profile.home', 'Netherlands')
    editor().set('search.min_salary', '{"amount": 70000, "currency": "EUR"}')
    editor().set('search.fx.USD', '0.92')
    const {config} = loadConfig({env})
    expect(config.profile).toEqual({
      roles: ['backend engineer', 'sre'],
      skills: {'node.js': 2, typescript: 3},
      avoid: [],
      seniority: 'senior',
      home: 'Netherlands',
      locations: ['remote', 'europe'],
    })
    // A skill of blanks only would match everywhere: refused like an empty one.
    expect(refusal(() => editor().set('profile.skills', '{" ": 2}')).message).toContain('must not be empty')
    expect(refusal(() => editor().set('profile.home', '" "')).message).toContain('profile.home must not be empty')
    expect(config.search.min_salary).toEqual({amount: 70000, currency: 'EUR', period: 'year', unknown: 'keep'})
    expect(config.search.fx).toEqual({USD: 0.92})
    // A dot in a key path separates keys: a skill with a dot in its name is set with the whole object, as above.
    expect(refusal(() => editor().set('profile.skills.vue.js', '2')).message).toContain(
      'profile.skills.vue must be an integer',
    )
    expect(refusal(() => editor().set('profile.skills.rust', '5')).message).toContain(
      'profile.skills.rust must be <= 3',
    )
    expect(refusal(() => editor().set('profile.seniority', 'guru')).message).toContain(
      'profile.seniority must be one of: junior, mid, senior, staff, lead, any',
    )
    expect(refusal(() => editor().set('search.min_salary.currency', 'euro')).message).toContain(
      'must be an ISO 4217 currency code such as EUR or USD',
    )
  })

  it('reads back one setting, gives the default of one that is not set, and reports one without a default', () => {
    editor().set('mode', 'development')
    expect(editor().get('mode')).toEqual({value: 'development', isDefault: false})
    expect(editor().get('server.port')).toEqual({value: 8080, isDefault: true})
    expect(() => editor().get('shipments.metadata.url')).toThrow(NotFoundError)
    // The notification floor: the default one until set, and 0 once set to 0.
    expect(editor().get('notify.min_score')).toEqual({value: 15, isDefault: true})
    editor().set('notify.min_score', '0')
    expect(editor().get('notify.min_score')).toEqual({value: 0, isDefault: false})
  })

  it('removes a setting so the default applies again', () => {
    editor().set('mode', 'development')
    editor().set('server.port', '9090')
    expect(editor().unset('mode')).toEqual({removed: true, problems: []})
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({server: {port: 9090}})
    expect(loadConfig({env}).config.mode).toBe('production')
  })

  it('says a known key that is not set was not removed, and leaves the file as it was', () => {
    editor().set('server.port', '9090')
    const before = readFileSync(file)
    for (const key of ['mode', 'search.tags', 'sources.5']) {
      expect(editor().unset(key), key).toEqual({removed: false, problems: []})
    }
    expect(readFileSync(file).equals(before)).toBe(true)
  })

  it.each([
    ['mode', 'dev', 'mode must be one of: production, development'],
    ['server.port', 'x', 'server.port must be an integer like 8080'],
    ['server.port', '70000', 'server.port must be <= 65535'],
    ['search.tags', '5', 'search.tags must be an array like ["typescript", "rust"]'],
    ['notify.max_items', '0', 'notify.max_items must be >= 1'],
    ['sources', '[{"type":"monster"}]', 'sources[0].type must be one of: remoteok, remotive,'],
    ['sources', '[{"type":"rss","urll":"x"}]', '"sources[0].urll" is not a known key'],
    [
      'shipments.metadata.url',
      'oracle://db',
      'shipments.metadata.url must be a sqlite://, postgres://, mysql://, mariadb:// or mongodb:// URL',
    ],
    ['run.healthcheck_url', 'ftp://example.org/ping', 'run.healthcheck_url must be an http(s) URL'],
    [
      'server.allowed_hosts',
      'http://jobagent.lan:80',
      'server.allowed_hosts[0] must be a host name or a bracketed IPv6',
    ],
  ])('refuses %s = %s, naming the key, and leaves the file as it was', (key, value, reason) => {
    editor().set('mode', 'development')
    const before = readFileSync(file)
    const error = refusal(() => editor().set(key, value))
    expect(error.message).toContain(reason)
    expect(error.message).toContain(file)
    expect(readFileSync(file).equals(before)).toBe(true)
  })

  it.each([
    ['search.min_salary', '70000', 'search.min_salary must be an object like {"amount": 70000, "currency": "EUR"}'],
    ['notify.max_items', 'ten', 'notify.max_items must be an integer like 20'],
    ['server.port', '{}', 'server.port must be an integer like 8080'],
    ['profile.skills', '[1]', 'profile.skills must be an object like {"typescript": 3, "node.js": 2}'],
    ['search.fx', '3', 'search.fx must be an object like {"USD": 0.92}'],
    ['search.tags', '5', 'search.tags must be an array like ["typescript", "rust"]'],
    ['sources', '{}', 'sources must be an array like [{"type": "remoteok"}]'],
    ['followups', '3', 'followups must be an object like {"after_days": 7}'],
    ['server.host', '5', 'server.host must be a text like "127.0.0.1"'],
  ])('refuses %s = %s with the accepted shape and an example that is accepted', (key, value, reason) => {
    editor().set('mode', 'development')
    const before = readFileSync(file)
    const error = refusal(() => editor().set(key, value))
    expect(error.message).toContain(reason)
    const example = reason.slice(reason.indexOf(' like ') + ' like '.length)
    expect(error.hint).toContain(`for example: jobagent config set ${key} '${example}'`)
    expect(readFileSync(file).equals(before)).toBe(true)
    expect(() => editor().set(key, example)).not.toThrow()
  })

  it.each([
    ['a missing required key', '[{"type":"greenhouse"}]', 'sources[0].boards is required for greenhouse'],
    [
      'an empty board list',
      '[{"type":"remoteok"},{"type":"lever","sites":[]}]',
      'sources[1].sites is required for lever',
    ],
    ['a feed without its URL', '[{"type":"rss","name":"x"}]', "sources[0].url is required for rss (the feed's URL)"],
    [
      'a file: URL',
      '[{"type":"remoteok","url":"file:///etc/passwd"}]',
      'sources[0].url must be an absolute http(s) URL',
    ],
    ['a relative URL', '[{"type":"rss","url":"jobs.rss"}]', 'sources[0].url must be an absolute http(s) URL'],
    [
      'the same board twice',
      '[{"type":"greenhouse","boards":["gitlab"]},{"type":"remoteok"},{"type":"greenhouse","boards":["x","gitlab"]}]',
      'sources[2] repeats the source greenhouse:gitlab of sources[0]',
    ],
    ['the same board twice', '[{"type":"remoteok"},{"type":"remoteok"}]', 'sources[1] repeats the source remoteok'],
    ['a file source without its path', '[{"type":"file","enabled":false}]', 'sources[0].path is required for file'],
    [
      'a Workday site not written tenant.wdN/site',
      '[{"type":"workday","sites":["nvidia.wd5/NVIDIAExternalCareerSite",{"slug":"nvidia","company":"NVIDIA"}]}]',
      'sources[0].sites[1] "nvidia" is not a Workday site',
    ],
  ])(
    'refuses sources with %s as run would, naming the entry, and leaves the file as it was',
    (_what, value, reason) => {
      editor().set('sources', '[{"type":"remotive"}]')
      const before = readFileSync(file)
      const error = refusal(() => editor().set('sources', value))
      expect(error.message).toContain(`cannot set sources in ${file}: ${reason}`)
      expect(error.details).toContainEqual(expect.objectContaining({message: expect.stringContaining(reason)}))
      expect(readFileSync(file).equals(before)).toBe(true)
    },
  )

  it('names every problem of a list at once', () => {
    const error = refusal(() =>
      editor().set('sources', '[{"type":"greenhouse"},{"type":"rss","url":"ftp://x.org/f"},{"type":"ashby"}]'),
    )
    expect(error.details.map((detail) => detail.field)).toEqual([
      'sources[0].boards',
      'sources[1].url',
      'sources[2].boards',
    ])
    expect(existsSync(file)).toBe(false)
  })

  it('judges an edit of one entry or key by the list it leaves', () => {
    editor().set('sources', '[{"type":"greenhouse","boards":["gitlab"]},{"type":"greenhouse","boards":["stripe"]}]')
    const before = readFileSync(file)
    expect(refusal(() => editor().set('sources.1.boards', '["gitlab"]')).message).toContain(
      'sources[1] repeats the source greenhouse:gitlab of sources[0]',
    )
    expect(refusal(() => editor().unset('sources.0.boards')).message).toContain(
      'sources[0].boards is required for greenhouse',
    )
    expect(readFileSync(file).equals(before)).toBe(true)
    editor().set('sources.1.name', 'gh2')
    editor().set('sources.1.boards', '["gitlab"]')
    expect(loadConfig({env}).config.sources[1]).toEqual({type: 'greenhouse', boards: ['gitlab'], name: 'gh2'})
  })

  it.each([
    ['colour', 'top-level keys are: mode, search, sources, notify, followups, profile, run, sweep, server, shipments'],
    ['search.foo', 'keys under search are: tags, keywords'],
    ['shipments.metadata.tabel', 'keys under shipments.metadata are: url, table'],
  ])('refuses the unknown key %s with set, get and unset, naming it', (key, hint) => {
    editor().set('mode', 'development')
    const before = readFileSync(file)
    for (const work of [() => editor().set(key, '1'), () => editor().get(key), () => editor().unset(key)]) {
      const error = refusal(work)
      expect(error.message).toBe(`unknown configuration key "${key}"`)
      expect(error.hint).toContain(hint)
    }
    expect(readFileSync(file).equals(before)).toBe(true)
  })

  it('removes a key that is in the file but unknown, and reports what the file still lacks', () => {
    writeFileSync(file, JSON.stringify({mdoe: 'x', search: {tagz: ['a']}, server: {port: 'eighty'}}))
    expect(
      editor()
        .unset('search.tagz')
        .problems.map((problem) => problem.field),
    ).toEqual(['server.port', 'mdoe'])
    expect(
      editor()
        .unset('mdoe')
        .problems.map((problem) => problem.field),
    ).toEqual(['server.port'])
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({search: {}, server: {port: 'eighty'}})
    editor().set('server.port', '9090')
    expect(loadConfig({env}).config.server.port).toBe(9090)
  })

  it('refuses an unset that adds a problem to a file that already has one', () => {
    writeFileSync(file, JSON.stringify({mdoe: 'x', sources: [{type: 'remoteok'}]}))
    const before = readFileSync(file)
    expect(refusal(() => editor().unset('sources.0.type')).message).toContain('sources[0].type')
    expect(readFileSync(file).equals(before)).toBe(true)
  })

  it('refuses to edit a file that is not JSON and leaves it untouched', () => {
    writeFileSync(file, 'mode = development\n')
    const error = refusal(() => editor().set('mode', 'production'))
    expect(error.message).toContain(file)
    expect(readFileSync(file, 'utf8')).toBe('mode = development\n')
  })

  it('does not create the file just to list or show its path', () => {
    expect(editor().list()).toEqual({})
    expect(editor().path).toBe(file)
    expect(existsSync(file)).toBe(false)
  })
})

describe('listing settings', () => {
  beforeEach(() => {
    editor().set(
      'notify.urls',
      JSON.stringify([
        'https://hooks.slack.com/services/T0/B0/SECRET1',
        'mailto://me:SECRET2@smtp.example.org?to=me@example.org',
      ]),
    )
    editor().set('shipments.metadata.url', 'postgres://app:SECRET3@db.example.org/shipments')
    editor().set('search.tags', '["node"]')
  })

  it('masks notification urls and credentials in urls', () => {
    const listed = JSON.stringify(editor().list())
    expect(listed).not.toMatch(/SECRET/)
    expect(editor().list()).toEqual({
      notify: {urls: ['https://hooks.slack.com/services/***/***/***', 'mailto://me:***@smtp.example.org?to=***']},
      shipments: {metadata: {url: 'postgres://app:***@db.example.org/shipments'}},
      search: {tags: ['node']},
    })
    expect(JSON.stringify(editor().get('notify'))).not.toMatch(/SECRET/)
    expect(JSON.stringify(editor().get('notify.urls'))).not.toMatch(/SECRET/)
  })

  it("masks a source's credential settings (Adzuna's app_id and app_key)", () => {
    editor().set('sources', '[{"type":"adzuna","country":"gb","app_id":"SECRET4","app_key":"SECRET5"}]')
    expect(JSON.stringify(editor().list())).not.toMatch(/SECRET/)
    expect(editor().list().sources).toEqual([{type: 'adzuna', country: 'gb', app_id: '***', app_key: '***'}])
    expect(JSON.stringify(editor().get('sources'))).not.toMatch(/SECRET/)
    expect(editor().get('sources.0.app_key').value).toBe('***')
    expect(editor().get('sources.0.app_id', {showSecrets: true}).value).toBe('SECRET4')
    // A list entry named as the messages name it is the same key.
    expect(editor().get('sources[0].app_key').value).toBe('***')
    expect(editor().get('sources[0].country').value).toBe('gb')
  })

  it('takes a list entry by its position in brackets, as its messages name it', () => {
    editor().set('sources', '[{"type":"greenhouse","boards":["gitlab"]}]')
    editor().set('sources[0].boards', '["stripe"]')
    expect(editor().get('sources.0.boards').value).toEqual(['stripe'])
    expect(refusal(() => editor().set('sources[0].type', 'monster')).message).toContain(
      'sources[0].type must be one of:',
    )
    expect(editor().unset('sources[0].name').removed).toBe(false)
    // A typo below a list's entry is an unknown key, as one anywhere else is.
    const typo = refusal(() => editor().get('sources[0].colour'))
    expect(typo.message).toBe('unknown configuration key "sources[0].colour"')
    expect(typo.hint).toMatch(/^keys under sources\[0\] are: type, name, url/)
  })

  it("masks the monitor's UUID, a board URL's token and a notification URL asked for by its position", () => {
    editor().set('run.healthcheck_url', 'https://hc-ping.com/5f4c1b0e-97a4-4b7e-9d0c-2c3f8a61e2b7')
    editor().set('sources', '[{"type":"rss","name":"feed","url":"https://git.example.org/feed?private_token=SECRET6"}]')
    expect(editor().get('run.healthcheck_url').value).toBe('https://hc-ping.com/***')
    expect(editor().list().sources).toEqual([
      {type: 'rss', name: 'feed', url: 'https://git.example.org/feed?private_token=***'},
    ])
    expect(editor().get('notify.urls.0').value).toBe('https://hooks.slack.com/services/***/***/***')
  })

  it('shows secrets in full only when asked', () => {
    expect(JSON.stringify(editor().list({showSecrets: true}))).toContain('SECRET3')
    expect(editor().get('notify.urls', {showSecrets: true}).value).toContain(
      'mailto://me:SECRET2@smtp.example.org?to=me@example.org',
    )
  })
})

describe('keys that name a prototype', () => {
  it('are refused in a key path and in a value, and nothing any object inherits changes', () => {
    editor().set('search.fx.USD', '0.9')
    const before = readFileSync(file, 'utf8')
    for (const [key, value] of [
      ['profile.skills.__proto__.polluted', '3'],
      ['search.fx', '{"__proto__": {"polluted": 1}}'],
      ['profile.skills', '{"constructor": 2}'],
      ['search.fx.prototype', '1'],
    ] as const) {
      const refused = refusal(() => editor().set(key, value))
      expect(refused.message, key).toContain('__proto__, constructor and prototype are not allowed as keys')
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(readFileSync(file, 'utf8')).toBe(before)
  })

  it('make a file invalid, naming the key, and config unset repairs it', () => {
    writeFileSync(file, '{"search": {"fx": {"__proto__": {"polluted": 1}, "USD": 0.9}}}', {mode: 0o600})
    const refused = refusal(() => loadConfig({env}))
    expect(refused.message).toContain('search.fx.__proto__: __proto__, constructor and prototype are not allowed')
    expect(refused.hint).toBe('fix it with: jobagent config unset search.fx.__proto__')
    expect(editor().unset('search.fx.__proto__')).toEqual({removed: true, problems: []})
    expect(loadConfig({env}).config.search.fx).toEqual({USD: 0.9})
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

/** The uid and gid of `nobody` on Debian and most Linux systems; chown to them needs no such account. */
const NOBODY = 65534
const notRoot = process.getuid?.() === 0 ? undefined : 'changing a file to another owner needs root'
if (notRoot) console.warn(`Skipping the owner test of config set: ${notRoot}`)

describe('the config file as the user keeps it', () => {
  it('keeps the mode of an existing config file', () => {
    writeFileSync(file, JSON.stringify({mode: 'development'}))
    chmodSync(file, 0o644)
    editor().set('search.tags', 'node')
    expect(statSync(file).mode & 0o7777).toBe(0o644)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({mode: 'development', search: {tags: ['node']}})
  })

  it.skipIf(notRoot !== undefined)('keeps the owner and mode of a config file owned by another account', () => {
    writeFileSync(file, JSON.stringify({mode: 'development'}))
    chmodSync(file, 0o644)
    chownSync(file, NOBODY, NOBODY)
    editor().set('mode', 'production')
    editor().unset('mode')
    const after = statSync(file)
    expect([after.uid, after.gid]).toEqual([NOBODY, NOBODY])
    expect(after.mode & 0o7777).toBe(0o644)
  })

  it('writes through a symbolic link to its target, which keeps its mode, and the link stays a link', () => {
    const dotfiles = join(home.path, 'dotfiles')
    mkdirSync(dotfiles)
    const target = join(dotfiles, 'jobagent.json')
    writeFileSync(target, JSON.stringify({mode: 'development'}))
    chmodSync(target, 0o640)
    symlinkSync(target, file)
    editor().set('search.tags', 'node')
    expect(lstatSync(file).isSymbolicLink()).toBe(true)
    expect(statSync(target).mode & 0o7777).toBe(0o640)
    expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual({mode: 'development', search: {tags: ['node']}})
  })

  it('creates a new config file 0600', () => {
    editor().set('mode', 'development')
    expect(statSync(file).mode & 0o7777).toBe(0o600)
  })
})
