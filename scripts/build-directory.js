// Writes data/directory.tsv.gz, the directory of employers' boards jobagent ships (src/core/jobs/board-directory.ts
// reads it; its format is described there), from the merged list in vendor/ats-directory/directory.jsonl.gz (one
// JSON object a line: ats, slug, company, sources, and region "eu" on Lever's EU sites; PROVENANCE.md there).
// Run: node scripts/build-directory.js [input.jsonl or input.jsonl.gz] [output.tsv.gz], by default from and to the
// files named above.
//
// Every line is checked, and a line out of shape stops the build naming its number. Only what jobagent uses is
// kept: the ATS, the slug as a `sources` entry takes it (Workday `<tenant>.<wdN>/<site>`, Teamtailor the name
// before `.teamtailor.com` or else the host, `%20` decoded since the adapters encode slugs themselves), the company
// when it is more than the slug, and Lever's EU region. A Workday site whose tenant or site the Workday adapter
// cannot ask (an `_` in the tenant, a `+` in the site) is left out and counted.
//
// The output is deterministic: the boards are sorted by ATS then slug, gzip is given no file name or time, and its
// header names no operating system, so the same input gives the same bytes (test/scripts/build-directory.test.ts
// checks the committed file against a build in process). The file is written only when its text changes, so a
// rebuild with another zlib leaves the committed bytes as they are.
import {readFileSync, renameSync, writeFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {gunzipSync, gzipSync} from 'node:zlib'

const ROOT = join(import.meta.dirname, '..')
export const INPUT = join(ROOT, 'vendor', 'ats-directory', 'directory.jsonl.gz')
export const OUTPUT = join(ROOT, 'data', 'directory.tsv.gz')
export const HEADER = 'jobagent-directory 1'

/** The ATSs jobagent reads boards of, as the directory names them (src/core/jobs/board-kinds.ts has their rows). */
export const ATS_TYPES = [
  'ashby',
  'bamboohr',
  'breezy',
  'greenhouse',
  'lever',
  'personio',
  'pinpoint',
  'recruitee',
  'rippling',
  'smartrecruiters',
  'teamtailor',
  'workable',
  'workday',
]
/** The ATSs whose boards are a host of their own, `{slug}.bamboohr.com`: the slug is one DNS label. */
const HOST_LABEL_ATS = new Set(['bamboohr', 'breezy', 'personio', 'pinpoint', 'recruitee'])
const KEYS = new Set(['ats', 'slug', 'company', 'sources', 'region'])
/** Longer slugs or names are no board's. */
const MAX_LENGTH = 300
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i
const HOST = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/
const WORKDAY_URL = /^([^./]+)\.(wd\d{1,3})\.myworkdayjobs\.com\/([^/]+)$/i
/** What the Workday adapter asks (workdaySite in src/core/jobs/board-kinds.ts). */
const WORKDAY_TENANT = /^[a-z0-9][a-z0-9-]*$/i
const WORKDAY_SITE = /^[a-z0-9][\w-]*$/i
// Control characters, white space other than the space, and the characters a line of the output is split on.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/

class LineError extends Error {}

/** The slug as a `sources` entry takes it, or a LineError saying what is wrong with it. */
function entrySlug(ats, raw) {
  if (raw === '' || raw.length > MAX_LENGTH || CONTROL.test(raw) || raw.includes(' ')) {
    throw new LineError(`slug ${JSON.stringify(raw)} is empty, too long or holds white space`)
  }
  if (/%(?!20)/.test(raw)) throw new LineError(`slug ${JSON.stringify(raw)} holds an escape other than %20`)
  const slug = raw.replaceAll('%20', ' ')
  if (ats === 'workday') {
    const match = WORKDAY_URL.exec(slug)
    if (!match) throw new LineError(`slug ${JSON.stringify(raw)} is not <tenant>.wd<N>.myworkdayjobs.com/<site>`)
    const [, tenant, centre, site] = match
    return {slug: `${tenant}.${centre}/${site}`, readable: WORKDAY_TENANT.test(tenant) && WORKDAY_SITE.test(site)}
  }
  if (ats === 'teamtailor') {
    if (!HOST.test(slug)) throw new LineError(`slug ${JSON.stringify(raw)} is not a host`)
    const [label, ...rest] = slug.split('.')
    return {slug: rest.join('.') === 'teamtailor.com' ? label : slug, readable: true}
  }
  if (HOST_LABEL_ATS.has(ats) && !LABEL.test(slug)) {
    throw new LineError(`slug ${JSON.stringify(raw)} is not a host name label, as ${ats} boards are`)
  }
  if (/[/?#]/.test(slug) || slug.startsWith(' ') || slug.endsWith(' ')) {
    throw new LineError(`slug ${JSON.stringify(raw)} is no path segment`)
  }
  return {slug, readable: true}
}

/** The board one line gives: `{ats, slug, company, region, readable}`, or a LineError. */
function boardOf(text) {
  let value
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new LineError(`not JSON (${error.message})`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new LineError('not a JSON object')
  for (const key of Object.keys(value)) {
    if (!KEYS.has(key)) throw new LineError(`unknown key ${JSON.stringify(key)}`)
  }
  const {ats, slug, company, sources, region} = value
  if (typeof ats !== 'string' || !ATS_TYPES.includes(ats)) {
    throw new LineError(`ats ${JSON.stringify(ats)} is not one of ${ATS_TYPES.join(', ')}`)
  }
  if (typeof slug !== 'string') throw new LineError('slug is missing or not a string')
  if (typeof company !== 'string' || company.length > MAX_LENGTH || CONTROL.test(company)) {
    throw new LineError('company is missing, not a string, too long or holds control characters')
  }
  if (sources !== undefined && (!Array.isArray(sources) || sources.some((name) => typeof name !== 'string'))) {
    throw new LineError('sources is not a list of names')
  }
  if (region !== undefined && (region !== 'eu' || ats !== 'lever')) {
    throw new LineError(`region ${JSON.stringify(region)}: only "eu", on a lever board, is known`)
  }
  const board = entrySlug(ats, slug)
  const name = company.trim()
  // A name that only repeats the slug says nothing the slug does not.
  return {ats, ...board, company: name === '' || name === slug ? '' : name, region: region ?? ''}
}

const byText = (a, b) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The directory's text from the merged list's: `{text, counts, skipped}`, `skipped` being the boards left out
 * (`{line, ats, slug}`). A line out of shape, or a board listed twice, throws an Error naming the line.
 */
export function buildDirectory(input) {
  const boards = []
  const skipped = []
  const seen = new Map()
  const lines = input.split('\n')
  lines.forEach((text, index) => {
    const line = index + 1
    if (text === '' && line === lines.length) return
    let board
    try {
      board = boardOf(text)
    } catch (error) {
      if (error instanceof LineError) throw new Error(`line ${line}: ${error.message}`)
      throw error
    }
    const id = `${board.ats}\t${board.slug.toLowerCase()}`
    const first = seen.get(id)
    if (first !== undefined) throw new Error(`line ${line}: ${board.ats} ${board.slug} is listed on line ${first} too`)
    seen.set(id, line)
    if (board.readable) boards.push(board)
    else skipped.push({line, ats: board.ats, slug: board.slug})
  })
  boards.sort((a, b) => byText(a.ats, b.ats) || byText(a.slug, b.slug))
  const out = [HEADER]
  const counts = {}
  for (const ats of ATS_TYPES) {
    const own = boards.filter((board) => board.ats === ats)
    counts[ats] = own.length
    out.push(`#${ats} ${own.length}`)
    for (const board of own) {
      const fields = [board.slug, board.company, board.region]
      while (fields.length > 1 && fields.at(-1) === '') fields.pop()
      out.push(fields.join('\t'))
    }
  }
  return {text: `${out.join('\n')}\n`, counts, skipped}
}

/** The text gzipped at the highest level, with no name or time, and "unknown" as its operating system. */
export function compress(text) {
  const bytes = gzipSync(Buffer.from(text, 'utf8'), {level: 9})
  bytes[9] = 255
  return bytes
}

/** The merged list's text, from a `.jsonl` file or a gzipped one. */
export function readInput(file) {
  const bytes = readFileSync(file)
  return (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8')
}

/** Whether `file` holds `text` gzipped already (any zlib's bytes). */
function holds(file, text) {
  try {
    return gunzipSync(readFileSync(file)).toString('utf8') === text
  } catch {
    return false
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const input = process.argv[2] ?? INPUT
  const output = process.argv[3] ?? OUTPUT
  const near = relative(process.cwd(), output)
  const shown = near === '' || near.startsWith('..') ? output : near
  let built
  try {
    built = buildDirectory(readInput(input))
  } catch (error) {
    console.error(`Error: ${input}: ${error.message}`)
    process.exit(1)
  }
  const {text, counts, skipped} = built
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0)
  if (holds(output, text)) {
    console.log(`${shown}: unchanged (${total} boards)`)
  } else {
    const bytes = compress(text)
    const temporary = `${output}.tmp`
    writeFileSync(temporary, bytes, {flush: true})
    renameSync(temporary, output)
    console.log(`${shown}: ${total} boards, ${bytes.length} bytes (${Buffer.byteLength(text)} unpacked)`)
  }
  if (skipped.length > 0) {
    const lines = skipped.map((board) => board.line).join(', ')
    console.log(`left out ${skipped.length} of them, which the adapters cannot ask (lines ${lines})`)
  }
}
