import {readFileSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {DEFAULT_SOURCES} from '../../src/app/config-schema.js'
import {tempDir} from '../helpers/cli.js'
import {type MockServer, sendJson, startMockServer} from '../helpers/mock-board.js'
import {runCommandLine} from '../helpers/run-command.js'

/**
 * `jobagent boards directory` and `boards find` answering from the directory of boards jobagent ships
 * (data/directory.tsv.gz), run in process. Probes go to a local server that records every request and answers 404,
 * so a test sees that the directory answered without asking any ATS.
 */

let ats: MockServer
let home: ReturnType<typeof tempDir>

beforeAll(async () => {
  ats = await startMockServer((_req, res) => sendJson(res, {error: 'not found'}, 404))
})
afterAll(() => ats.close())
beforeEach(() => {
  home = tempDir('jobagent-directory-')
  ats.requests.length = 0
})
afterEach(() => home.cleanup())

const configFile = () => join(home.path, 'config.json')
const writeConfig = (config: unknown) => writeFileSync(configFile(), JSON.stringify(config), {mode: 0o600})
const readConfig = () => JSON.parse(readFileSync(configFile(), 'utf8')) as {sources?: unknown[]}
const boards = (args: string[], env: Record<string, string> = {}) =>
  runCommandLine(['boards', ...args], {home: home.path, env: {JOBAGENT_BOARDS_PROBE_URL: ats.url, ...env}})

/** A port nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as {port: number}
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('jobagent boards directory', () => {
  it('counts the boards of each ATS without a filter, and says how to list them', async () => {
    const result = await boards(['directory'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^jobagent's directory holds 45,708 employers' boards on 13 ATSs:\n/)
    expect(result.stdout).toMatch(/\nbamboohr\s+9,324\n/)
    expect(result.stdout).toMatch(/\npinpoint\s+244\n/)
    expect(result.stdout).toContain('List the boards of one: jobagent boards directory --ats greenhouse')
    expect(result.stdout).toContain('Look for a company: jobagent boards directory --search "<name>"')
  })

  it('lists the boards of one ATS up to the limit, each with its link and entry, and says how many more', async () => {
    const result = await boards(['directory', '--ats', 'Pinpoint', '--limit', '2'])
    expect(result.code, result.stderr).toBe(0)
    const lines = result.stdout.split('\n')
    expect(lines[0]).toMatch(/^SOURCE\s+ATS\s+COMPANY\s+LINK$/)
    expect(lines[1]).toMatch(
      /^pinpoint:aawdc\s+Pinpoint\s+Anne Arundel Workforce Development Corporation \(AAWDC\)\s+https:\/\/aawdc\.pinpointhq\.com$/,
    )
    expect(lines[2]).toMatch(/^pinpoint:abbottlyon\s+Pinpoint\s+-\s+https:\/\/abbottlyon\.pinpointhq\.com$/)
    expect(result.stdout).toContain('pinpoint:aawdc: {"type":"pinpoint","companies":["aawdc"]}')
    expect(result.stdout).toContain('… and 242 more on pinpoint (--limit 244 lists them all)')
    expect(result.stdout).toContain('Add a board to the config with: jobagent boards find <SOURCE> --add')
  })

  it('searches company names and slugs, the exact name first, and --json gives the whole listing', async () => {
    const result = await boards(['directory', '--search', 'Stripe, Inc.', '--json'])
    expect(result.code, result.stderr).toBe(0)
    const listing = JSON.parse(result.stdout)
    expect(listing).toMatchObject({total: 45_708, filter: {ats: null, search: 'Stripe, Inc.'}, more: 0})
    expect(listing.counts).toHaveLength(13)
    expect(listing.counts[0]).toEqual({type: 'greenhouse', ats: 'Greenhouse', boards: 6692})
    expect(listing.boards[0]).toEqual({
      type: 'greenhouse',
      ats: 'Greenhouse',
      slug: 'stripe',
      name: 'greenhouse:stripe',
      company: 'Stripe',
      url: 'https://job-boards.greenhouse.io/stripe',
      entry: {type: 'greenhouse', boards: ['stripe']},
    })
    expect(listing.boards.map((board: {slug: string}) => board.slug)).toContain('soundstripe')
    expect(listing.matched).toBe(listing.boards.length)

    const none = await boards(['directory', '--ats', 'rippling', '--search', 'stripe'])
    expect(none.code).toBe(0)
    expect(none.stdout).toBe(
      'No board of the directory on rippling matching "stripe".\nAsk the ATS hosts for it: jobagent boards find "stripe"\n',
    )
  })

  it('refuses an ATS it does not hold with Error:, the nearest name, Hint: the list, and exit 2', async () => {
    const result = await boards(['directory', '--ats', 'grenhouse'])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      'Error: --ats "grenhouse" is not an ATS the directory holds (did you mean greenhouse?)\n' +
        'Hint: give one of greenhouse, lever, ashby, bamboohr, breezy, personio, pinpoint, recruitee, rippling, ' +
        'smartrecruiters, teamtailor, workable, workday\n',
    )
    const json = await boards(['directory', '--ats', 'remoteok', '--json'])
    expect(json.code).toBe(2)
    expect(JSON.parse(json.stdout)).toMatchObject({error: {code: 'validation'}})
    expect((await boards(['directory', '--limit', '0'])).code).toBe(2)
  })
})

describe('jobagent boards find, from the directory', () => {
  it('answers a company name at once, with its ATS, link and entry, and asks no ATS', async () => {
    const result = await boards(['find', 'Airbnb, Inc.'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(
      /^"Airbnb, Inc\." is in jobagent's directory of boards \(no request made to an ATS\): 1 board\n\n/,
    )
    expect(result.stdout).toMatch(
      /\ngreenhouse:airbnb\s+Greenhouse\s+Airbnb\s+https:\/\/job-boards\.greenhouse\.io\/airbnb\n/,
    )
    expect(result.stdout).toContain('greenhouse:airbnb: {"type":"greenhouse","boards":["airbnb"]}')
    expect(result.stdout).toContain('one may have closed since (--probe asks the ATSs now)')
    expect(result.stdout).toContain("Add to the config with: jobagent boards find 'Airbnb, Inc.' --add")
    expect(ats.requests).toEqual([])
  })

  it('finds a board by its slug when the company is named otherwise, and --json says where it came from', async () => {
    const result = await boards(['find', '0G', '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({
      query: '0G',
      read_as: 'name',
      candidates: [],
      probes: 0,
      page: null,
      boards: [
        {
          type: 'ashby',
          ats: 'Ashby',
          slug: '0g',
          name: 'ashby:0g',
          company: '0g Labs',
          url: 'https://jobs.ashbyhq.com/0g',
          entry: {type: 'ashby', boards: ['0g']},
          from: 'directory',
          count: null,
          count_is_minimum: false,
          sample_title: null,
        },
      ],
      unanswered: [],
      added: null,
      present: null,
    })
    expect(ats.requests).toEqual([])
  })

  it.each([
    ['https://boards.greenhouse.io/airbnb/jobs/7654321', 'greenhouse:airbnb', 'Airbnb'],
    ['jobs.lever.co/palantir', 'lever:palantir', 'Palantir Technologies'],
    ['https://jobs.eu.lever.co/aavelabs', 'lever:aavelabs', 'Aave Labs'],
    [
      'https://nvidia.wd5.myworkdayjobs.com/en-US/NVIDIAExternalCareerSite/job/123',
      'workday:nvidia.wd5/NVIDIAExternalCareerSite',
      'NVIDIA',
    ],
    ['https://career.avanza.se/jobs/4321-developer', 'teamtailor:career.avanza.se', 'Avanza'],
    ['https://crunchbase.na.teamtailor.com/jobs', 'teamtailor:crunchbase.na.teamtailor.com', 'Crunchbase'],
  ])('reads the careers URL %s as the directory’s %s, without a request', async (url, name, company) => {
    const result = await boards(['find', url, '--json'])
    expect(result.code, result.stderr).toBe(0)
    const found = JSON.parse(result.stdout)
    expect(found).toMatchObject({read_as: 'url', probes: 0, boards: [{name, company, from: 'directory'}]})
    expect(ats.requests).toEqual([])
  })

  it('--add writes the board with the directory’s company name, and a source name finds the board too', async () => {
    writeConfig({sources: [{type: 'remotive'}, {type: 'lever', region: 'eu', sites: ['globex']}]})
    const added = await boards(['find', 'Aave Labs', '--add'])
    expect(added.code, added.stderr).toBe(0)
    expect(added.stdout).toContain(`Added lever:aavelabs to sources in ${configFile()}.`)
    expect(readConfig().sources).toEqual([
      {type: 'remotive'},
      {type: 'lever', region: 'eu', sites: ['globex', {slug: 'aavelabs', company: 'Aave Labs'}]},
    ])

    writeConfig({mode: 'production'})
    const bySource = await boards(['find', 'greenhouse:AIRBNB', '--add', '--json'])
    expect(bySource.code, bySource.stderr).toBe(0)
    expect(JSON.parse(bySource.stdout)).toMatchObject({read_as: 'source', added: ['greenhouse:airbnb']})
    expect(readConfig().sources).toEqual([
      ...DEFAULT_SOURCES,
      {type: 'greenhouse', boards: [{slug: 'airbnb', company: 'Airbnb'}]},
    ])
    expect(ats.requests).toEqual([])
  })

  it('takes a source name the directory lacks as that board, without a request', async () => {
    const result = await boards(['find', 'greenhouse:newco'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^Recognised Greenhouse board "newco" from its source name \(no request made\)\./)
    expect(ats.requests).toEqual([])
  })

  it('asks the ATSs when the directory lacks the name, and with --probe when it has it', async () => {
    const lacking = await boards(['find', 'Zyxwvut Robotics', '--json'])
    expect(lacking.code).toBe(1)
    expect(JSON.parse(lacking.stdout).error.message).toMatch(/^no board with open jobs found for "Zyxwvut Robotics"/)
    expect(ats.requests.length).toBeGreaterThan(0)

    ats.requests.length = 0
    const probed = await boards(['find', 'Airbnb', '--probe'])
    expect(probed.code).toBe(1)
    expect(probed.stderr).toContain('Error: no board with open jobs found for "Airbnb" (tried airbnb)')
    const paths = ats.requests.map((request) => request.url.split('?')[0])
    expect(paths).toContain('/greenhouse/airbnb/v1/boards/airbnb/jobs')
  })

  it('says in one line that no ATS host could be reached when every probe fails, offline', async () => {
    const offline = {JOBAGENT_BOARDS_PROBE_URL: `http://127.0.0.1:${await closedPort()}`}
    const result = await boards(['find', 'Zyxwvut Robotics'], offline)
    expect(result.code).toBe(1)
    const lines = result.stderr.trimEnd().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(
      /^Error: could not reach any ATS host: network error: connect ECONNREFUSED 127\.0\.0\.1:\d+; check the network \(\d+ probes failed\)$/,
    )
    expect(lines[1]).toBe(
      'Hint: the directory of boards answers offline: jobagent boards directory --search "Zyxwvut Robotics"; ' +
        'a careers URL on a known ATS is recognised without a request',
    )
    const json = await boards(['find', 'Zyxwvut Robotics', '--json'], offline)
    expect(JSON.parse(json.stdout)).toMatchObject({error: {code: 'unavailable', details: []}})
  })
})
