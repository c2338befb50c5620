import {existsSync, readFileSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {htmlToText} from '../../src/core/jobs/description.js'
import type {JobResponse, SearchCriteria} from '../../src/core/jobs/job.js'
import type {JobSource} from '../../src/core/jobs/job-source.js'
import type {SourceConfig} from '../../src/core/jobs/source-config.js'
import {silentLogger} from '../../src/core/logger.js'
import type {HttpClientOptions} from '../../src/http-client/client.js'
import {HttpClient} from '../../src/http-client/index.js'
import {createSources} from '../../src/sources/index.js'
import type {AdapterDeps} from '../../src/sources/shared.js'
import {EMPTY_CRITERIA} from './criteria.js'

const ROOT = resolve(import.meta.dirname, '../..')

/** Copies of the real board captures, kept in the repo so CI does not need the shared directory. */
export const SOURCE_FIXTURES = join(ROOT, 'test/fixtures/sources')
/** The originals, beside the work tree when it is checked out for the project; absent elsewhere. */
export const SHARED_SOURCE_FIXTURES = resolve(ROOT, '../shared/fixtures/sources')

export function fixtureText(name: string): string {
  return readFileSync(join(SOURCE_FIXTURES, name), 'utf8')
}

export function fixtureJson<T = unknown>(name: string): T {
  return JSON.parse(fixtureText(name)) as T
}

export const hasSharedFixtures = existsSync(SHARED_SOURCE_FIXTURES)

/** A shared client as the run builds it, with retry delays of a few milliseconds so fault tests stay fast. */
export function testHttpClient(options: HttpClientOptions = {}): HttpClient {
  return new HttpClient({retries: 2, retryBaseDelayMs: 5, ...options})
}

export function testDeps(http: HttpClient = testHttpClient()): AdapterDeps {
  return {http, logger: silentLogger, toText: htmlToText}
}

/** What the run passes: no criteria and a signal nobody aborts. */
export function fetchAll(source: JobSource, criteria: Partial<SearchCriteria> = {}): Promise<JobResponse[]> {
  return source.fetchJobs({...EMPTY_CRITERIA, ...criteria}, new AbortController().signal)
}

/** The sources of a `sources` list as a run builds them, over the test client unless given another. */
export function sourcesOf(configs: SourceConfig[], http: HttpClient = testHttpClient()): JobSource[] {
  return createSources(configs, {http, logger: silentLogger})
}

/** The first source of a `sources` list (one entry of one board). */
export function oneSource(configs: SourceConfig[], http?: HttpClient): JobSource {
  const [source] = sourcesOf(configs, http)
  if (!source) throw new Error('no source built')
  return source
}
