import {UnavailableError} from '../core/errors.js'
import type {HtmlToText} from '../core/jobs/description.js'
import type {JobResponse} from '../core/jobs/job.js'
import type {JobSource} from '../core/jobs/job-source.js'
import {cleanText} from '../core/jobs/normalise.js'
import {type SourceConfig, sourceName} from '../core/jobs/source-config.js'
import {feedAdapter} from './board-adapter.js'
import {type AdapterDeps, adapterSettings, arrayField, isObject, type Json, requestOptions, toJob} from './shared.js'

const HACKERNEWS_URL = 'https://hn.algolia.com'
const THREAD_TITLE = 'Ask HN: Who is hiring?'
/** Algolia's largest page; a thread has a few hundred top-level posts plus replies. */
const HITS_PER_PAGE = 1000
const MAX_TITLE_LENGTH = 120
const WORK_MODE = /\b(remote|onsite|on-site|hybrid)\b/i

/**
 * The newest Hacker News "Ask HN: Who is hiring?" thread through the Algolia HN API: the thread is the newest
 * story by `whoishiring`, the jobs are its top-level comments (replies are left out), read up to `max_pages`
 * pages. Each post's first line is read as "Company | Role | Location | ...". Jobs link to the comment on HN.
 */
function hackerNewsSource(config: SourceConfig, deps: AdapterDeps): JobSource {
  const settings = adapterSettings(config, HACKERNEWS_URL)
  return {
    name: sourceName(config),
    serverSideFilters: [],
    async fetchJobs(_criteria, signal) {
      const options = requestOptions(settings, signal, deps.logger)
      const stories = await deps.http.getJson(
        `${settings.baseUrl}/api/v1/search_by_date?tags=story,author_whoishiring&query=who%20is%20hiring&hitsPerPage=5`,
        options,
      )
      const storyId = newestThreadId(arrayField(stories, 'hits'))
      if (storyId === undefined) {
        throw new UnavailableError(`no "${THREAD_TITLE}" thread by whoishiring found`)
      }
      const jobs: JobResponse[] = []
      for (let page = 0; page < settings.maxPages; page++) {
        const body = await deps.http.getJson(
          `${settings.baseUrl}/api/v1/search_by_date?tags=comment,story_${storyId}&hitsPerPage=${HITS_PER_PAGE}&page=${page}`,
          options,
        )
        const hits = arrayField(body, 'hits')
        jobs.push(...mapHackerNewsComments(hits, storyId, deps.toText))
        const pages = isObject(body) && typeof body.nbPages === 'number' ? body.nbPages : 1
        if (hits.length === 0 || page + 1 >= pages) break
      }
      return jobs
    },
  }
}

/** The id of the newest "Ask HN: Who is hiring?" story among the hits (not "Who wants to be hired?"). */
function newestThreadId(hits: readonly unknown[]): number | undefined {
  const threads = hits
    .filter(isObject)
    .filter((hit) => typeof hit.title === 'string' && hit.title.startsWith(THREAD_TITLE))
    .sort((a, b) => createdAt(b) - createdAt(a))
  const id = Number(threads[0]?.objectID)
  return Number.isInteger(id) && id > 0 ? id : undefined
}

function createdAt(hit: Json): number {
  if (typeof hit.created_at_i === 'number') return hit.created_at_i
  const parsed = typeof hit.created_at === 'string' ? Date.parse(hit.created_at) : Number.NaN
  return Number.isNaN(parsed) ? 0 : parsed / 1000
}

function mapHackerNewsComments(hits: readonly unknown[], storyId: number, toText: HtmlToText): JobResponse[] {
  const jobs: JobResponse[] = []
  for (const hit of hits) {
    if (!isObject(hit) || Number(hit.parent_id) !== storyId) continue
    const heading = parseHeading(hit.comment_text)
    if (!heading) continue
    const job = toJob(
      'hackernews',
      {
        ...heading,
        url: hit.objectID === undefined ? '' : `https://news.ycombinator.com/item?id=${String(hit.objectID)}`,
        posted_date: hit.created_at ?? hit.created_at_i,
        description: hit.comment_text,
        board_id: hit.objectID,
      },
      toText,
    )
    if (job) jobs.push(job)
  }
  return jobs
}

/**
 * A line of HTML without its tags. Only the part up to the last `>` is searched: there every `<` has a `>` after
 * it, so each tag is found in one pass, where a `<` with no `>` after it made the pattern read on to the end again
 * from every one of them.
 */
function withoutTags(line: string): string {
  const end = line.lastIndexOf('>') + 1
  return end === 0 ? line : `${line.slice(0, end).replace(/<[^>]*>/g, '')}${line.slice(end)}`
}

/** The first line of a post, by convention "Company | Role | Location | REMOTE | ...". */
export function parseHeading(commentText: unknown): {company: string; title: string; location: string} | undefined {
  if (typeof commentText !== 'string') return undefined
  let firstLine = ''
  for (const line of commentText.split(/<p>|<br\s*\/?>|\n/i)) {
    firstLine = cleanText(withoutTags(line))
    if (firstLine !== '') break
  }
  if (!firstLine) return undefined
  const parts = firstLine
    .split('|')
    .map((part) => part.trim())
    .filter(Boolean)
  if (parts.length < 2) {
    // No pipes: keep the opening words as the title so the post is still listed.
    const title =
      firstLine.length > MAX_TITLE_LENGTH ? `${firstLine.slice(0, MAX_TITLE_LENGTH - 1).trimEnd()}…` : firstLine
    return {company: '', title, location: ''}
  }
  const [company = '', title = '', location = '', ...rest] = parts
  // "Remote", "Onsite" or "Hybrid" often comes after the location; keep it so remote-only searches see it.
  const modes = rest.filter((part) => WORK_MODE.test(part) && !location.toLowerCase().includes(part.toLowerCase()))
  return {company, title, location: [location, ...modes].filter(Boolean).join('; ')}
}

export const hackerNewsBoard = feedAdapter('hackernews', {source: hackerNewsSource, defaultUrl: () => HACKERNEWS_URL})
