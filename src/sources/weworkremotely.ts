import type {HtmlToText} from '../core/jobs/description.js'
import type {JobResponse} from '../core/jobs/job.js'
import type {JobSource} from '../core/jobs/job-source.js'
import {cleanText} from '../core/jobs/normalise.js'
import {type SourceConfig, sourceName} from '../core/jobs/source-config.js'
import {feedAdapter} from './board-adapter.js'
import {type FeedItem, feedDescription, fetchFeed, textOf} from './feed.js'
import {type AdapterDeps, adapterSettings, eligibility, splitCompanyTitle, toJob} from './shared.js'

const WEWORKREMOTELY_URL = 'https://weworkremotely.com'
const ALL_JOBS_FEED = '/remote-jobs.rss'
/** The header every posting's description starts with names the company's site: `<strong>URL:</strong> <a href="...">`. */
const COMPANY_URL = /<strong>\s*URL:\s*<\/strong>\s*<a\s+href="([^"]+)"/i
/** Flag emoji are pairs of regional indicator symbols; the country names beside them say the same. */
const FLAGS = /[\u{1f1e6}-\u{1f1ff}]/gu

/**
 * We Work Remotely's RSS feed of all jobs, or the category feed that `url` names when it ends in `.rss`.
 * Terms: attribute the links back to We Work Remotely; applying goes through weworkremotely.com (`link`).
 */
function weWorkRemotelySource(config: SourceConfig, deps: AdapterDeps): JobSource {
  const settings = adapterSettings(config, WEWORKREMOTELY_URL)
  const feedUrl = /\.rss$/i.test(settings.baseUrl) ? settings.baseUrl : `${settings.baseUrl}${ALL_JOBS_FEED}`
  return {
    name: sourceName(config),
    serverSideFilters: [],
    async fetchJobs(_criteria, signal) {
      const feed = await fetchFeed(deps.http, feedUrl, settings, signal, deps.logger)
      return mapWeWorkRemotely(feed.items, deps.toText)
    },
  }
}

function mapWeWorkRemotely(items: readonly FeedItem[], toText: HtmlToText): JobResponse[] {
  const jobs: JobResponse[] = []
  for (const item of items) {
    const description = feedDescription(item)
    const heading = cleanText(item.title)
    const split = splitCompanyTitle(heading)
    const region = cleanText(textOf(item.fields.region))
    const country = cleanText(textOf(item.fields.country).replace(FLAGS, ''))
    const job = toJob(
      'weworkremotely',
      {
        title: split?.title ?? heading,
        company: split?.company ?? '',
        location: [region, country].filter(Boolean).join(', '),
        url: item.link || textOf(item.fields.guid),
        posted_date: item.date,
        description,
        company_url: COMPANY_URL.exec(description)?.[1],
        employment_type: textOf(item.fields.type),
        remote: true,
        // "USA Only", "Europe Only": the place without the word; "Anywhere in the World" is no restriction. The
        // region's white space is folded already, so one space stands before the word.
        regions: eligibility(region.replace(/ only\b/gi, '')).regions,
        tags: [textOf(item.fields.category), ...textOf(item.fields.skills).split(',')],
      },
      toText,
    )
    if (job) jobs.push(job)
  }
  return jobs
}

export const weWorkRemotelyBoard = feedAdapter('weworkremotely', {
  source: weWorkRemotelySource,
  defaultUrl: () => WEWORKREMOTELY_URL,
})
