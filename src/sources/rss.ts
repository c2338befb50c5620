import {feedName} from '../core/jobs/board-kinds.js'
import type {HtmlToText} from '../core/jobs/description.js'
import type {JobResponse} from '../core/jobs/job.js'
import type {JobSource} from '../core/jobs/job-source.js'
import {cleanText} from '../core/jobs/normalise.js'
import {type SourceConfig, sourceName} from '../core/jobs/source-config.js'
import {feedAdapter} from './board-adapter.js'
import {type FeedItem, feedDescription, fetchFeed} from './feed.js'
import {type AdapterDeps, adapterSettings, splitCompanyTitle, toJob} from './shared.js'

/**
 * Any RSS 2.0, RSS 1.0 or Atom feed of jobs at `url` (the full feed URL). The company comes from a
 * "Company: Title" item title when there is one, else it is the feed's name. Respect the feed owner's terms.
 */
function rssSource(config: SourceConfig & {url: string}, deps: AdapterDeps): JobSource {
  const settings = adapterSettings(config, config.url)
  const name = feedName(config)
  return {
    name: sourceName(config),
    serverSideFilters: [],
    async fetchJobs(_criteria, signal) {
      const feed = await fetchFeed(deps.http, config.url, settings, signal, deps.logger)
      return mapFeedItems(feed.items, name, deps.toText)
    },
  }
}

function mapFeedItems(items: readonly FeedItem[], name: string, toText: HtmlToText): JobResponse[] {
  const jobs: JobResponse[] = []
  for (const item of items) {
    const heading = cleanText(item.title)
    const split = splitCompanyTitle(heading)
    const job = toJob(
      name,
      {
        title: split?.title ?? heading,
        company: split?.company ?? name,
        location: '',
        url: item.link,
        posted_date: item.date,
        description: feedDescription(item),
      },
      toText,
    )
    if (job) jobs.push(job)
  }
  return jobs
}

/** The feed is the entry's `url`, which the config check requires. */
export const rssBoard = feedAdapter('rss', {
  source: (config, deps) => rssSource({...config, url: config.url ?? ''}, deps),
})
