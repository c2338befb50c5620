import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import BoardsFind from '../../commands/boards/find.js'
import {checkConfig} from '../../src/app/config-schema.js'
import {boardEntry} from '../../src/core/jobs/board-entries.js'
import {BOARD_KINDS} from '../../src/core/jobs/board-kinds.js'
import {atsLabels, parseCareersUrl, probeableAts, recogniseBoardUrl} from '../../src/core/jobs/board-urls.js'
import {
  requiredKeys,
  SOURCE_TYPES,
  type SourceConfig,
  sourceName,
  validateSourceConfigs,
} from '../../src/core/jobs/source-config.js'
import {BOARD_ADAPTERS, boardAdapter} from '../../src/sources/registry.js'
import {ROOT} from '../helpers/cli.js'
import {sourcesOf} from '../helpers/source-fixtures.js'

/** A value each key a type requires is accepted with: the checks are the config's, the values are samples. */
const SAMPLES: Record<string, unknown> = {
  url: 'https://example.org/jobs.rss',
  path: 'jobs.json',
  country: 'gb',
  app_id: 'sample-id',
  app_key: 'sample-key',
}

/** The smallest entry of `type` the checks accept: its list holds the board its example URL names, if it has one. */
function smallestEntry(type: string): SourceConfig {
  const kind = BOARD_KINDS.find((row) => row.type === type)
  const example = kind && 'ats' in kind ? parseCareersUrl(kind.ats.example) : undefined
  const board = example ? recogniseBoardUrl(example) : undefined
  if (board) return boardEntry(board)
  const entry: Record<string, unknown> = {type}
  for (const key of requiredKeys(type as SourceConfig['type'])) entry[key] = SAMPLES[key]
  return entry as unknown as SourceConfig
}

describe('the board registry', () => {
  it('holds one adapter for every row of BOARD_KINDS, each with the facts of its row', () => {
    expect(BOARD_ADAPTERS.map((adapter) => adapter.type).sort()).toEqual([...SOURCE_TYPES].sort())
    for (const kind of BOARD_KINDS) {
      const adapter = boardAdapter(kind.type)
      expect(adapter, kind.type).toMatchObject({type: kind.type, label: kind.label})
      expect(adapter?.list, kind.type).toBe('list' in kind ? kind.list : undefined)
    }
  })

  it.each([...SOURCE_TYPES])(
    '%s: its smallest entry passes the config schema and the checks, and builds its source',
    (type) => {
      const entry = smallestEntry(type)
      const checked = checkConfig({sources: [entry]})
      expect(checked.ok ? [] : checked.problems).toEqual([])
      expect(() => validateSourceConfigs([entry])).not.toThrow()
      const list = boardAdapter(type)?.list
      const slug = list ? (entry[list]?.[0] as string) : undefined
      expect(sourcesOf([entry]).map((source) => source.name)).toEqual([sourceName(entry, slug)])
    },
  )

  it('refuses a type no row holds, in the schema and in the checks', () => {
    const entry = {type: 'nosuchboard'} as unknown as SourceConfig
    expect(checkConfig({sources: [entry]}).ok).toBe(false)
    expect(() => validateSourceConfigs([entry])).toThrow(/is not a source type/)
  })

  it.each(BOARD_KINDS.flatMap((kind) => ('ats' in kind ? [[kind.type, kind.ats.example] as const] : [])))(
    '%s: boards find recognises its example %s as its own board, acme',
    (type, example) => {
      const url = parseCareersUrl(example)
      const board = url ? recogniseBoardUrl(url) : undefined
      expect(board?.type).toBe(type)
      expect(board?.slug.toLowerCase()).toMatch(/^acme(\.wd5\/careers)?$/)
      // No other ATS claims it.
      const others = BOARD_KINDS.filter((kind) => 'ats' in kind && kind.type !== type)
      for (const kind of others) if ('ats' in kind && url) expect(kind.ats.recognise(partsOf(url))).toBeUndefined()
    },
  )

  it('tries a name on every ATS a slug names, and names every ATS in the help of boards find', () => {
    const ats = BOARD_KINDS.flatMap((kind) => ('ats' in kind ? [kind] : []))
    expect(probeableAts().map((row) => row.type)).toEqual(ats.filter((kind) => kind.ats.probe).map((kind) => kind.type))
    for (const label of atsLabels()) expect(BoardsFind.description).toContain(label)
  })

  it('is what docs/SOURCES.md lists, type by type, and the README names every ATS', () => {
    const sources = readFileSync(join(ROOT, 'docs/SOURCES.md'), 'utf8')
    // The table of types: the rows after its header, up to the first line that is no row.
    const table =
      sources
        .split('\n## ')[0]
        ?.split(/^\| type +\| what is requested.*$/m)[1]
        ?.split(/\n(?!\|)/)[0] ?? ''
    const listed = [...table.matchAll(/^\| `([a-z]+)` +\|/gm)].map((match) => match[1])
    expect(listed).toEqual(expect.arrayContaining([...SOURCE_TYPES]))
    expect([...SOURCE_TYPES]).toEqual(expect.arrayContaining(listed))
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ')
    for (const label of atsLabels()) expect(readme).toContain(label)
  })
})

/** The parts of a URL as recogniseBoardUrl reads them, for asking one row alone. */
function partsOf(url: URL) {
  const labels = url.hostname.toLowerCase().split('.')
  if (labels[0] === 'www') labels.shift()
  return {labels, segments: url.pathname.split('/').filter(Boolean), query: url.searchParams}
}
