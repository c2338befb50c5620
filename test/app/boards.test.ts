import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {DEFAULT_SOURCES} from '../../src/app/config-schema.js'
import {tempDir} from '../helpers/cli.js'
import {type MockServer, sendJson, sendText, serveBody, startMockServer} from '../helpers/mock-board.js'
import {runCommandLine} from '../helpers/run-command.js'
import {fixtureText} from '../helpers/source-fixtures.js'

/**
 * `jobagent boards find` and `boards list` run in process. Acme is in the directory of boards jobagent ships (as
 * personio:acme and recruitee:acme), so its probes are asked for with --probe; Slowco and "Nobody Here" are not
 * in it, so they are probed as any name the directory lacks. Probes go to one local server through
 * JOBAGENT_BOARDS_PROBE_URL (`<url>/<type>/<slug>` + the ATS's own path): Acme has a Greenhouse board `acme` and a
 * Lever site `acme-corp`; its Recruitee host fails with a 500; everything else is a 404. `/careers` is Acme's own
 * careers page.
 */
/** A company's careers page with a Greenhouse embed and a link to its Lever site. */
const CAREERS_PAGE = `<!doctype html><html><body><h1>Join Acme</h1>
<script src="https://boards.greenhouse.io/embed/job_board/js?for=acme"></script>
<a href="https://jobs.lever.co/acme">Our European roles</a></body></html>`

/** A page that links to 5,000 companies' boards, as a directory of employers does. */
const DIRECTORY_PAGE = `<!doctype html><html><body>${Array.from(
  {length: 5000},
  (_, index) => `<a href="https://boards.greenhouse.io/company${index}">Company ${index}</a>`,
).join('\n')}</body></html>`

let ats: MockServer
let home: ReturnType<typeof tempDir>

beforeAll(async () => {
  ats = await startMockServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]
    if (path === '/greenhouse/acme/v1/boards/acme/jobs') return serveBody(fixtureText('greenhouse.json'))(req, res)
    if (path === '/lever/acme-corp/v0/postings/acme-corp') return serveBody(fixtureText('lever.json'))(req, res)
    if (path === '/ashby/acme/posting-api/job-board/acme') return sendJson(res, {jobs: []})
    if (path?.startsWith('/recruitee/acmecorp/')) return sendText(res, 'upstream down', 500)
    // Slowco's Ashby board never answers.
    if (path?.startsWith('/ashby/slowco/')) return new Promise<void>(() => {})
    if (path === '/careers') return sendText(res, CAREERS_PAGE, 200, {'content-type': 'text/html'})
    if (path === '/about') return sendText(res, '<html><a href="https://acme.com/">Acme</a></html>', 200)
    if (path === '/directory') return sendText(res, DIRECTORY_PAGE, 200, {'content-type': 'text/html'})
    sendJson(res, {error: 'not found'}, 404)
  })
})
afterAll(() => ats.close())
beforeEach(() => {
  home = tempDir('jobagent-boards-')
  ats.requests.length = 0
})
afterEach(() => home.cleanup())

const configFile = () => join(home.path, 'config.json')
const writeConfig = (config: unknown) => writeFileSync(configFile(), JSON.stringify(config), {mode: 0o600})
const readConfig = () => JSON.parse(readFileSync(configFile(), 'utf8')) as {sources?: unknown[]}
const boards = (args: string[], env: Record<string, string> = {}) =>
  runCommandLine(['boards', ...args], {home: home.path, env: {JOBAGENT_BOARDS_PROBE_URL: ats.url, ...env}})

describe('jobagent boards find <careers URL>', () => {
  it('recognises the board without any request and prints its entry and the next step', async () => {
    const result = await boards(['find', 'https://boards.greenhouse.io/embed/job_board?for=Acme'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('Recognised Greenhouse board "acme" from the URL (no request made).')
    expect(result.stdout).toContain('greenhouse:acme: {"type":"greenhouse","boards":["acme"]}')
    expect(result.stdout).toContain(
      "Add to the config with: jobagent boards find 'https://boards.greenhouse.io/embed/job_board?for=Acme' --add",
    )
    expect(ats.requests).toEqual([])
  })

  it('--add puts the slug into the entry of its type already there, once, and says so the second time', async () => {
    writeConfig({sources: [{type: 'remotive'}, {type: 'greenhouse', boards: ['gitlab']}]})
    const first = await boards(['find', 'job-boards.greenhouse.io/acme', '--add'])
    expect(first.code, first.stderr).toBe(0)
    expect(first.stdout).toContain(`Added greenhouse:acme to sources in ${configFile()}.`)
    expect(first.stdout).toContain('Search it with: jobagent run')
    expect(readConfig().sources).toEqual([{type: 'remotive'}, {type: 'greenhouse', boards: ['gitlab', 'acme']}])

    const again = await boards(['find', 'https://boards.greenhouse.io/acme/jobs/123', '--add'])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stdout).toContain('greenhouse:acme is in sources already.')
    expect(readConfig().sources).toEqual([{type: 'remotive'}, {type: 'greenhouse', boards: ['gitlab', 'acme']}])
    expect(ats.requests).toEqual([])
  })

  it('adds a Lever site of the EU region as an entry of that region, beside the global one', async () => {
    writeConfig({sources: [{type: 'lever', sites: ['globex']}]})
    const result = await boards(['find', 'https://jobs.eu.lever.co/acme', '--add', '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({read_as: 'url', added: ['lever:acme'], present: []})
    expect(readConfig().sources).toEqual([
      {type: 'lever', sites: ['globex']},
      {type: 'lever', region: 'eu', sites: ['acme']},
    ])
  })

  it('recognises a Workday site, which no name finds, and adds it as a site', async () => {
    writeConfig({sources: [{type: 'remotive'}]})
    const shown = await boards(['find', 'https://acme.wd5.myworkdayjobs.com/en-US/Careers', '--json'])
    expect(shown.code, shown.stderr).toBe(0)
    expect(JSON.parse(shown.stdout).boards).toEqual([
      expect.objectContaining({type: 'workday', slug: 'acme.wd5/Careers', count: null}),
    ])
    const added = await boards(['find', 'https://acme.wd5.myworkdayjobs.com/en-US/Careers', '--add'])
    expect(added.code, added.stderr).toBe(0)
    expect(added.stdout).toContain('Added workday:acme.wd5/Careers to sources')
    expect(JSON.parse(readFileSync(configFile(), 'utf8')).sources).toEqual([
      {type: 'remotive'},
      {type: 'workday', sites: ['acme.wd5/Careers']},
    ])
  })
})

describe('jobagent boards find <company name>', () => {
  it('tries each candidate slug on each ATS once, at once, and prints the boards that answered with jobs', async () => {
    const started = Date.now()
    const result = await boards(['find', 'Acme Corp, Inc.', '--probe', '--json'])
    expect(result.code, result.stderr).toBe(0)
    const found = JSON.parse(result.stdout)
    expect(found).toMatchObject({read_as: 'name', candidates: ['acmecorp', 'acme-corp', 'acme'], added: null})
    expect(found.boards).toEqual([
      {
        type: 'greenhouse',
        ats: 'Greenhouse',
        slug: 'acme',
        name: 'greenhouse:acme',
        company: null,
        url: 'https://job-boards.greenhouse.io/acme',
        from: 'probe',
        count: 3,
        count_is_minimum: false,
        sample_title: 'Account Executive - Italy',
        entry: {type: 'greenhouse', boards: ['acme']},
      },
      expect.objectContaining({name: 'lever:acme-corp', count: 4, sample_title: 'Director of IT'}),
    ])
    expect(found.unanswered).toEqual([{name: 'recruitee:acmecorp', error: expect.stringContaining('500')}])
    // One request per slug and ATS: no retry of the 500, no detail request.
    expect(ats.requests).toHaveLength(found.probes)
    expect(new Set(ats.requests.map((request) => request.url)).size).toBe(found.probes)
    expect(found.probes).toBeGreaterThanOrEqual(27)
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('gives a board that does not answer five seconds, once, and reports it as not judged', async () => {
    const started = Date.now()
    const result = await boards(['find', 'Slowco', '--json'])
    const took = Date.now() - started
    expect(result.code).toBe(1)
    const error = JSON.parse(result.stdout).error
    expect(error.message).toMatch(
      /^no board with open jobs found for "Slowco" \(tried slowco; 1 of \d+ probes got no answer\)$/,
    )
    expect(error.details).toEqual([{field: 'ashby:slowco', message: expect.stringContaining('timed out after 5 s')}])
    expect(ats.requests.filter((request) => request.url.startsWith('/ashby/slowco/'))).toHaveLength(1)
    expect(took).toBeGreaterThanOrEqual(4900)
    expect(took).toBeLessThan(8000)
  }, 15_000)

  it('shows the boards as a table with counts and sample titles, and says which probes got no answer', async () => {
    const result = await boards(['find', 'Acme Corp, Inc.', '--probe'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^Tried acmecorp, acme-corp, acme on \d+ ATSs \(\d+ requests\); 2 answered/)
    expect(result.stdout).toMatch(/greenhouse:acme\s+Greenhouse\s+3\s+Account Executive - Italy/)
    expect(result.stdout).toMatch(/lever:acme-corp\s+Lever\s+4\s+Director of IT/)
    expect(result.stdout).toContain('1 probes got no answer, so those boards were not judged (recruitee:acmecorp:')
  })

  it('--add writes every board found, with the name asked for as its company, beside the boards in force', async () => {
    writeConfig({mode: 'production'})
    const result = await boards(['find', 'Acme Corp, Inc.', '--probe', '--add'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('Added greenhouse:acme to sources')
    expect(result.stdout).toContain('Added lever:acme-corp to sources')
    expect(readConfig()).toEqual({
      mode: 'production',
      sources: [
        ...DEFAULT_SOURCES,
        {type: 'greenhouse', boards: [{slug: 'acme', company: 'Acme Corp, Inc.'}]},
        {type: 'lever', sites: [{slug: 'acme-corp', company: 'Acme Corp, Inc.'}]},
      ],
    })
  })

  it('answers a name no board knows with Error:, Hint: and exit 1, and --json with the error document', async () => {
    const result = await boards(['find', 'Nobody Here'])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(
      'Error: no board with open jobs found for "Nobody Here" (tried nobodyhere, nobody-here)',
    )
    expect(result.stderr).toContain("Hint: paste the URL of the company's board instead")

    const json = await boards(['find', 'Nobody Here', '--json'])
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout)).toMatchObject({error: {code: 'not_found'}})
  })

  it("reads a company's own careers page for the boards it links to, and adds them without a probe", async () => {
    writeConfig({sources: [{type: 'remotive'}]})
    const result = await boards(['find', `${ats.url}/careers`, '--add', '--json'])
    expect(result.code, result.stderr).toBe(0)
    const found = JSON.parse(result.stdout)
    expect(found).toMatchObject({
      read_as: 'page',
      probes: 1,
      page: {url: `${ats.url}/careers`, error: null},
      added: ['greenhouse:acme', 'lever:acme'],
    })
    expect(found.boards.map((board: {name: string; count: unknown}) => [board.name, board.count])).toEqual([
      ['greenhouse:acme', null],
      ['lever:acme', null],
    ])
    expect(readConfig().sources).toEqual([
      {type: 'remotive'},
      {type: 'greenhouse', boards: ['acme']},
      {type: 'lever', sites: ['acme']},
    ])
    expect(ats.requests.map((request) => request.url)).toEqual(['/careers'])

    const text = await boards(['find', `${ats.url}/careers`])
    expect(text.stdout).toContain('The careers page links to Greenhouse "acme", Lever "acme".')
  })

  it('--add refuses a page that links to more than 5 boards, writes nothing, and the listing stops at 20', async () => {
    writeConfig({sources: [{type: 'remotive'}]})
    const before = readFileSync(configFile(), 'utf8')
    const result = await boards(['find', `${ats.url}/directory`, '--add'])
    expect(result.stderr).toContain(
      'Error: the page links to 5000 boards; --add writes at most 5 at once, so none was added',
    )
    expect(result.stderr).toContain(
      "Hint: add the ones you want one at a time by their board's URL (jobagent boards find https://jobs.lever.co/<company> --add)",
    )
    expect(result.code).toBe(2)
    expect(readFileSync(configFile(), 'utf8')).toBe(before)

    const listed = await boards(['find', `${ats.url}/directory`])
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).toContain('The careers page links to 5000 boards: Greenhouse "company0", ')
    const entries = listed.stdout.split('\n').filter((line) => line.startsWith('greenhouse:company'))
    expect(entries).toHaveLength(20)
    expect(listed.stdout).toContain('… and 4980 more (--json lists them all)')
    expect(JSON.parse((await boards(['find', `${ats.url}/directory`, '--json'])).stdout).boards).toHaveLength(5000)
  })

  it('answers a careers page that names no board, on a host that names no company, with no board found', async () => {
    const result = await boards(['find', `${ats.url}/about`])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(
      `Error: no board with open jobs found for "${ats.url}/about" (the page links to no known board; no slug could be made of it)`,
    )
    expect(ats.requests.map((request) => request.url)).toEqual(['/about'])
  })

  it('refuses an empty query with exit 2, and a probe URL that is no URL', async () => {
    expect((await boards(['find', '  '])).code).toBe(2)
    const result = await boards(['find', 'acme'], {JOBAGENT_BOARDS_PROBE_URL: 'not-a-url'})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('Error: JOBAGENT_BOARDS_PROBE_URL must be an absolute http(s) URL')
    expect(ats.requests).toEqual([])
  })
})

describe('jobagent boards list', () => {
  let served: MockServer
  beforeAll(async () => {
    served = await startMockServer({
      '/fine/api/remote-jobs': serveBody(fixtureText('remotive.json')),
      '/gh/v1/boards/gitlab/jobs': serveBody(fixtureText('greenhouse.json')),
    })
  })
  afterAll(() => served.close())

  it('shows every configured source with its outcome in the last run, a dead board as dead, and never run', async () => {
    writeConfig({
      sources: [
        {type: 'remotive', name: 'fine', url: `${served.url}/fine`},
        {type: 'remotive', name: 'gone', url: `${served.url}/gone`},
        {type: 'greenhouse', url: `${served.url}/gh`, boards: ['gitlab']},
        {type: 'lever', sites: ['off'], enabled: false},
      ],
    })
    const before = await boards(['list'])
    expect(before.code, before.stderr).toBe(0)
    expect(before.stdout).toMatch(/^SOURCE\s+ENABLED\s+LAST RUN\s+OUTCOME\n/)
    expect(before.stdout).toMatch(/greenhouse:gitlab\s+yes\s+-\s+never run/)

    for (const _ of [1, 2, 3]) {
      const run = await runCommandLine(['run', '--quiet'], {home: home.path})
      expect(run.code, run.stderr).toBe(0)
    }
    const config = readConfig()
    writeConfig({...config, sources: [...(config.sources ?? []), {type: 'ashby', boards: ['later']}]})

    const list = await boards(['list'])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toMatch(/\nfine\s+yes\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+ok, \d+ jobs\n/)
    expect(list.stdout).toMatch(/\ngone\s+yes\s+\S+ \S+\s+dead \(3 runs\): HTTP 404/)
    expect(list.stdout).toMatch(/\ngreenhouse:gitlab\s+yes\s+\S+ \S+\s+ok, 3 jobs\n/)
    expect(list.stdout).toMatch(/\nlever:off\s+no\s+-\s+never run\n/)
    expect(list.stdout).toMatch(/\nashby:later\s+yes\s+-\s+never run\n$/)

    const json = JSON.parse((await boards(['list', '--json'])).stdout)
    expect(json.count).toBe(5)
    expect(json.sources[1]).toMatchObject({
      name: 'gone',
      type: 'remotive',
      slug: null,
      enabled: true,
      last: {run_id: 3, outcome: {ok: false, status: 404, anomaly: {code: 'dead', runs: 3}}},
    })
    expect(json.sources[2]).toMatchObject({name: 'greenhouse:gitlab', slug: 'gitlab', last: {outcome: {count: 3}}})
    expect(json.sources[3]).toMatchObject({name: 'lever:off', enabled: false, last: null})
  })
})
