/**
 * The versions that key cached work (HTML_RULES_VERSION for the text read from a posting's HTML, ANALYSIS_VERSION for
 * what a description says for a profile) are guarded by what they cache: the output of the rules on a fixed corpus
 * (the real board answers in test/fixtures), as a digest recorded beside the version. When the output changes and
 * the version does not, cached results would be reused wrongly: this test fails and says what to raise. The backup
 * file's format version is guarded the same way, by the JSON Schema of the file it reads.
 */
import {createHash} from 'node:crypto'
import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {toJSONSchema} from 'zod/mini'
import {BACKUP_VERSION, backupSchema} from '../../src/core/applications/backup.js'
import {HTML_RULES_VERSION, htmlToText} from '../../src/core/jobs/description.js'
import type {Profile} from '../../src/core/matching/profile.js'
import {ANALYSIS_VERSION, descriptionAnalyser} from '../../src/core/matching/score.js'
import {ROOT} from '../helpers/cli.js'
import {knowledge} from '../helpers/knowledge.js'
import {relevanceFixture, relevanceJobs} from '../helpers/relevance.js'

const recorded = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/cache-versions.json'), 'utf8')) as Record<
  'html_rules' | 'reading' | 'backup_format',
  {version: number; digest: string}
>

/** Every string of the board fixtures and the relevance set's captures that holds markup: the HTML boards send. */
function markup(): string[] {
  const found: string[] = []
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.includes('<')) found.push(value)
    } else if (Array.isArray(value)) value.forEach(walk)
    else if (value && typeof value === 'object') Object.values(value).forEach(walk)
  }
  for (const dir of ['test/fixtures/sources', 'test/fixtures/relevance/captures'].map((path) => join(ROOT, path))) {
    for (const name of readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .sort()) {
      // A byte order mark is skipped, as a board's answer read over HTTP skips it.
      walk(JSON.parse(readFileSync(join(dir, name), 'utf8').replace(/^\uFEFF/, '')))
    }
  }
  return found
}

const digest = (parts: readonly (string | null)[]) => {
  const hash = createHash('sha256')
  for (const part of parts) hash.update(`${part ?? '\u0001'}\u0000`)
  return hash.digest('hex').slice(0, 16)
}

describe('the versions of cached work', () => {
  it('raise HTML_RULES_VERSION whenever what htmlToText returns changes', () => {
    const html = markup()
    expect(html.length).toBeGreaterThan(50)
    const now = digest(html.map((text) => htmlToText(text)))
    expect(
      {version: HTML_RULES_VERSION, digest: now},
      `htmlToText's output changed: raise HTML_RULES_VERSION and record its digest ${now} in test/fixtures/cache-versions.json`,
    ).toEqual(recorded.html_rules)
  })

  it('raise ANALYSIS_VERSION whenever what a description reading holds changes', () => {
    const jobs = relevanceJobs()
    const profiles = Object.values(relevanceFixture<Record<string, Profile>>('profiles.json'))
    const readings = profiles.flatMap((profile) => {
      const reader = descriptionAnalyser({profile, options: {}, knowledge})
      return jobs.map((job) => reader.encode(reader.analyse(job.description ?? '')))
    })
    const now = digest(readings)
    expect(
      {version: ANALYSIS_VERSION, digest: now},
      `description readings changed: raise ANALYSIS_VERSION and record its digest ${now} in test/fixtures/cache-versions.json`,
    ).toEqual(recorded.reading)
  })

  it('raise BACKUP_VERSION, or record the new shape, whenever the backup file a restore reads changes', () => {
    const now = digest([JSON.stringify(toJSONSchema(backupSchema, {io: 'input', unrepresentable: 'any'}))])
    expect(
      {version: BACKUP_VERSION, digest: now},
      `the backup file's schema changed: when files of the old shape can no longer be restored (a required field added, one renamed or removed), raise BACKUP_VERSION (docs/BACKUP.md); then record the digest ${now} in test/fixtures/cache-versions.json`,
    ).toEqual(recorded.backup_format)
  })
})
