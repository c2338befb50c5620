import {spawnSync} from 'node:child_process'
import {readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {gunzipSync} from 'node:zlib'
import {afterEach, describe, expect, it} from 'vitest'
// @ts-expect-error: a plain ESM script without types
import {ATS_TYPES, buildDirectory, compress, INPUT, OUTPUT, readInput} from '../../scripts/build-directory.js'
import {parseBoardDirectory} from '../../src/core/jobs/board-directory.js'
import {workdaySite} from '../../src/core/jobs/board-kinds.js'
import {atsTypes} from '../../src/core/jobs/board-urls.js'
import {ROOT, tempDir} from '../helpers/cli.js'

const FIXTURE = join(ROOT, 'test/fixtures/ats-directory/directory.jsonl')
const SCRIPT = join(ROOT, 'scripts/build-directory.js')

interface Built {
  text: string
  counts: Record<string, number>
  skipped: {line: number; ats: string; slug: string}[]
}
const build = buildDirectory as (input: string) => Built

/** The merged list's line for a board: the fields the shared file gives. */
const line = (fields: Record<string, unknown>) =>
  JSON.stringify({ats: 'greenhouse', slug: 'acme', company: 'Acme', sources: ['freehire'], ...fields})

let work: ReturnType<typeof tempDir> | undefined
afterEach(() => work?.cleanup())

describe('scripts/build-directory.js', () => {
  it('keeps what jobagent uses of each board, as a sources entry names it, sorted by ATS then slug', () => {
    const built = build(readFileSync(FIXTURE, 'utf8'))
    expect(built.text).toBe(
      [
        'jobagent-directory 1',
        '#ashby 2',
        // %20 decoded (the adapters encode slugs), the name that only repeats the slug left out.
        '1st formations',
        'notion\tNotion',
        '#bamboohr 1',
        'acmehouseco',
        '#breezy 0',
        '#greenhouse 2',
        'acme-corp\tAcme Corp, Inc.',
        'airbnb\tAirbnb',
        '#lever 2',
        'Initech',
        'globex\tGlobex GmbH\teu',
        '#personio 1',
        'zurich-labs\tZürich Labs AG',
        '#pinpoint 0',
        '#recruitee 0',
        '#rippling 0',
        '#smartrecruiters 0',
        // A site on teamtailor.com by its name there; one in the North American region or on the company's own
        // domain by its host.
        '#teamtailor 3',
        'bryter\tBryter',
        'career.avanza.se\tAvanza',
        'crunchbase.na.teamtailor.com\tCrunchbase',
        '#workable 0',
        // Workday as `<tenant>.<wdN>/<site>`; a tenant the adapter cannot ask is left out and counted.
        '#workday 1',
        'nvidia.wd5/NVIDIAExternalCareerSite\tNVIDIA',
        '',
      ].join('\n'),
    )
    expect(built.skipped).toEqual([{line: 13, ats: 'workday', slug: 'vhr_epri.wd1/epricareers'}])
    expect(built.counts).toMatchObject({ashby: 2, teamtailor: 3, workday: 1})
    // What the script writes is what jobagent reads.
    expect(parseBoardDirectory(built.text).size).toBe(12)
  })

  it.each([
    ['not JSON', '{"ats": "greenhouse",', /^line 2: not JSON/],
    ['not an object', '["greenhouse", "acme"]', /^line 2: not a JSON object$/],
    ['an ATS jobagent does not read', line({ats: 'taleo'}), /^line 2: ats "taleo" is not one of ashby, /],
    ['a key of no known meaning', line({url: 'https://x'}), /^line 2: unknown key "url"$/],
    ['no company', line({company: undefined}), /^line 2: company is missing/],
    ['a company with a tab', line({company: 'Ac\tme'}), /^line 2: company .* control characters$/],
    ['a slug with white space', line({slug: 'ac me'}), /^line 2: slug "ac me" .* white space$/],
    ['an escape other than %20', line({slug: 'ac%2Fme'}), /^line 2: slug "ac%2Fme" holds an escape other than %20$/],
    ['a slug with a slash', line({slug: 'acme/jobs'}), /^line 2: slug "acme\/jobs" is no path segment$/],
    ['a region off Lever', line({region: 'eu'}), /^line 2: region "eu": only "eu", on a lever board, is known$/],
    [
      'a Workday site in another shape',
      line({ats: 'workday', slug: 'acme/Careers'}),
      /^line 2: slug .* is not <tenant>/,
    ],
    [
      'a Teamtailor site that is no host',
      line({ats: 'teamtailor', slug: 'acme'}),
      /^line 2: slug "acme" is not a host$/,
    ],
    ['a host label with a dot', line({ats: 'breezy', slug: 'a.b'}), /^line 2: slug "a.b" is not a host name label/],
    ['a board listed twice', line({slug: 'ACME'}), /^line 2: greenhouse ACME is listed on line 1 too$/],
  ])('stops at a line with %s, naming its number', (_what, bad, message) => {
    expect(() => build(`${line({})}\n${bad}\n${line({slug: 'later'})}\n`)).toThrow(message)
  })

  it('writes the same bytes from the same input, and leaves a file holding the same text as it is', () => {
    work = tempDir('jobagent-directory-build-')
    const run = (output: string) =>
      spawnSync(process.execPath, [SCRIPT, FIXTURE, output], {cwd: work?.path, encoding: 'utf8'})
    const first = run(join(work.path, 'first.tsv.gz'))
    expect(first.status, first.stderr).toBe(0)
    expect(first.stdout).toBe(
      'first.tsv.gz: 12 boards, 314 bytes (440 unpacked)\nleft out 1 of them, which the adapters cannot ask (lines 13)\n',
    )
    expect(run(join(work.path, 'second.tsv.gz')).status).toBe(0)
    const bytes = readFileSync(join(work.path, 'first.tsv.gz'))
    expect(readFileSync(join(work.path, 'second.tsv.gz')).equals(bytes)).toBe(true)
    // gzip's header: no file name, no time, no operating system.
    expect([...bytes.subarray(0, 10)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 255])
    expect(run(join(work.path, 'first.tsv.gz')).stdout).toMatch(/^first\.tsv\.gz: unchanged \(12 boards\)\n/)
  })

  it('exits 1 on a bad line, naming the file and the line, and writes nothing', () => {
    work = tempDir('jobagent-directory-build-')
    const input = join(work.path, 'bad.jsonl')
    writeFileSync(input, `${line({})}\n{"ats": 1}\n`)
    const result = spawnSync(process.execPath, [SCRIPT, input, join(work.path, 'out.tsv.gz')], {encoding: 'utf8'})
    expect(result.status).toBe(1)
    expect(result.stderr).toBe(`Error: ${input}: line 2: ats 1 is not one of ${ATS_TYPES.join(', ')}\n`)
    expect(readdirSync(work.path)).toEqual(['bad.jsonl'])
  })
})

describe('data/directory.tsv.gz', () => {
  const built = build(readInput(INPUT))

  it('holds what scripts/build-directory.js makes of the vendored list, and its bytes are the script’s own', () => {
    const committed = readFileSync(OUTPUT)
    expect(gunzipSync(committed).toString('utf8') === built.text).toBe(true)
    // Another zlib may compress the same text otherwise; the script leaves a file holding its text untouched.
    expect((compress(built.text) as Buffer).equals(compress(built.text))).toBe(true)
  })

  it('holds the 45,716 boards of the list but the 8 Workday sites the adapter cannot ask, on the 13 ATSs', () => {
    const total = Object.values(built.counts).reduce((sum, count) => sum + count, 0)
    expect(total + built.skipped.length).toBe(45_716)
    expect(built.skipped).toHaveLength(8)
    expect(built.skipped.every((board) => board.ats === 'workday')).toBe(true)
    expect([...ATS_TYPES].sort()).toEqual(atsTypes().sort())
    expect(built.counts).toMatchObject({bamboohr: 9324, greenhouse: 6692, workday: 6245, pinpoint: 244})
  })

  it('writes every Workday site as the config and the adapter take one', () => {
    const directory = parseBoardDirectory(built.text)
    const sites = [...directory.boardsOf('workday')]
    expect(sites).toHaveLength(6245)
    expect(sites.filter((board) => workdaySite(board.slug) === undefined)).toEqual([])
  })
})
