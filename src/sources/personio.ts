import type {JobResponse, SearchCriteria} from '../core/jobs/job.js'
import type {JobSource} from '../core/jobs/job-source.js'
import {type BoardRef, type SourceConfig, sourceName} from '../core/jobs/source-config.js'
import {HttpError, looksLikeHtml} from '../http-client/index.js'
import {listAdapter} from './board-adapter.js'
import {explainNotFound} from './board-source.js'
import {parseXml, textOf, withoutReservedNames, xmlParser} from './feed.js'
import {
  type AdapterDeps,
  adapterSettings,
  endpoint,
  isObject,
  type Json,
  toJob,
  UnexpectedShapeError,
} from './shared.js'

const XML_ACCEPT = 'application/xml, text/xml;q=0.9, */*;q=0.1'
const EXPECTED = 'a Personio <workzag-jobs> document'

const parser = xmlParser([
  'workzag-jobs.position',
  'workzag-jobs.position.additionalOffices.office',
  'workzag-jobs.position.jobDescriptions.jobDescription',
])

const NOT_FOUND = {
  what: (company: BoardRef) => `no Personio company "${company.slug}"`,
  hint: 'check the company name in the companies list (the name in https://<company>.jobs.personio.de)',
}

/** The host of a company's career site, where its postings are (`https://acme.jobs.personio.de/job/123`). */
const publicHost = (company: BoardRef) => `https://${company.slug}.jobs.personio.de`

/**
 * One Personio career site (`GET https://{company}.jobs.personio.de/xml`): every open position in one XML
 * document, `<workzag-jobs>` of `<position>`s, whose public page is `/job/{id}` on the company's host. An unknown
 * company is redirected to personio's own site, an HTML page, which is reported like a 404.
 */
function personioSource(config: SourceConfig, company: BoardRef, deps: AdapterDeps): JobSource {
  const settings = adapterSettings(config, publicHost(company), company)
  return {
    name: sourceName(config, company.slug),
    serverSideFilters: [],
    async fetchJobs(_criteria: SearchCriteria, signal: AbortSignal) {
      const url = endpoint(settings.baseUrl, '/xml')
      let xml: string
      try {
        xml = await deps.http.getText(url, {
          signal,
          timeoutMs: settings.timeoutMs,
          logger: deps.logger,
          headers: {accept: XML_ACCEPT},
        })
      } catch (error) {
        throw explainNotFound(error, NOT_FOUND, company)
      }
      if (looksLikeHtml(xml)) {
        // Counted as a 404, which is what the redirect means.
        throw new HttpError(`HTML instead of the XML feed: ${NOT_FOUND.what(company)}`, {
          url,
          status: 404,
          hint: NOT_FOUND.hint,
        })
      }
      const open = withoutReservedNames(positions(parseXml(parser, xml, EXPECTED)), 'position', deps.logger)
      return mapPositions(open, company, deps)
    },
  }
}

function positions(document: Json): Json[] {
  const root = document['workzag-jobs']
  // An employer with no open position answers `<workzag-jobs></workzag-jobs>`: an empty text, not an element.
  if (root === '') return []
  if (!isObject(root)) throw new UnexpectedShapeError(EXPECTED)
  return Array.isArray(root.position) ? root.position.filter(isObject) : []
}

function mapPositions(items: readonly Json[], company: BoardRef, deps: AdapterDeps): JobResponse[] {
  const jobs: JobResponse[] = []
  for (const item of items) {
    const id = textOf(item.id).trim()
    if (id === '') continue
    const extra = isObject(item.additionalOffices) ? item.additionalOffices.office : []
    const offices = [textOf(item.office), ...(Array.isArray(extra) ? extra.map(textOf) : [])]
      .map((office) => office.trim())
      .filter((office, index, all) => office !== '' && all.indexOf(office) === index)
    const subcompany = textOf(item.subcompany).trim()
    const type = textOf(item.employmentType)
    const schedule = textOf(item.schedule)
    const job = toJob(
      'personio',
      {
        title: textOf(item.name),
        company: subcompany || (company.company ?? company.slug),
        location: offices.join('; '),
        url: `${publicHost(company)}/job/${encodeURIComponent(id)}`,
        posted_date: textOf(item.createdAt),
        description: description(item),
        // `permanent` says nothing of the hours: a permanent part-time position is part-time.
        employment_type: type === 'permanent' ? [schedule, type] : [type, schedule],
        // The feed has no remote flag; an office named remote (`Remote`, `Remote (EU)`) is the one sign.
        remote: offices.some((office) => /\bremote\b/i.test(office)) ? true : null,
        seniority: textOf(item.seniority),
        tags: [textOf(item.department), textOf(item.recruitingCategory), ...textOf(item.keywords).split(',')],
        board_id: id,
      },
      deps.toText,
    )
    if (job) jobs.push(job)
  }
  return jobs
}

/** The named sections of `<jobDescriptions>` (`<name>` and HTML `<value>`), each under its name as a heading. */
function description(item: Json): string {
  const sections = isObject(item.jobDescriptions) ? item.jobDescriptions.jobDescription : []
  return (Array.isArray(sections) ? sections.filter(isObject) : [])
    .map((section) => {
      const heading = textOf(section.name).trim()
      return `${heading === '' ? '' : `<h3>${escapeHtml(heading)}</h3>`}${textOf(section.value).trim()}`
    })
    .join('')
}

/** A section name is text (the parser has decoded its entities): it goes into the HTML escaped. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

export const personioBoard = listAdapter('personio', {
  source: personioSource,
  defaultUrl: (_config, company) => publicHost(company),
})
