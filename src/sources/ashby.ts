import {parseSalaryText, salaryFromAmounts} from '../core/jobs/salary.js'
import {jsonBoardsAdapter} from './board-adapter.js'
import {jobsUnder, nonEmptyStrings, publicUrl, remoteRegion, slugPath, text, workplace} from './board-helpers.js'
import type {BoardSpec} from './board-source.js'
import {eligibility, isObject, type Json} from './shared.js'

/**
 * One Ashby job board (`GET /posting-api/job-board/{board}`), all jobs in one response. Jobs carry no company
 * name: the configured `company`, else the board slug. Unlisted jobs (`isListed: false`) are skipped.
 */
const ASHBY: BoardSpec = {
  type: 'ashby',
  defaultUrl: publicUrl('https://api.ashbyhq.com'),
  path: slugPath('/posting-api/job-board/'),
  query: () => ({includeCompensation: 'true'}),
  page: jobsUnder('jobs'),
  expected: 'an object with a "jobs" array',
  notFound: {
    what: (board) => `no Ashby board "${board.slug}"`,
    hint: 'check the board name in the boards list (the name in https://jobs.ashbyhq.com/<board>)',
  },
  job: (item, board) => {
    if (item.isListed === false) return null
    const secondary = Array.isArray(item.secondaryLocations)
      ? item.secondaryLocations.map((entry) => (isObject(entry) ? entry.location : undefined))
      : []
    const locations = nonEmptyStrings([item.location, ...secondary]).map((location) => location.trim())
    const remoteFrom = locations.map(remoteRegion).filter((region) => region !== undefined)
    const where = eligibility(remoteFrom.join(', '))
    return {
      title: item.title,
      company: board.company ?? board.slug,
      location: [...new Set(locations)].join('; '),
      url: item.jobUrl,
      posted_date: item.publishedAt,
      description: item.descriptionHtml,
      salary: ashbySalary(item),
      employment_type: item.employmentType,
      // A location named remote (`Remote (US)`) opens the job to remote work from there, whatever else it is.
      // Otherwise workplaceType says what the job is: isRemote has been seen true on Hybrid jobs at offices only.
      remote:
        remoteFrom.length > 0
          ? true
          : (workplace(item.workplaceType) ?? (typeof item.isRemote === 'boolean' ? item.isRemote : null)),
      regions: where.regions,
      timezones: where.timezones,
      tags: [item.department, item.team],
      board_id: item.id,
    }
  },
}

/**
 * Ashby's salary: the Salary component of `compensation.summaryComponents` (`interval` `1 YEAR`, `1 HOUR`, ...),
 * with the summary text the board shows; nothing when the employer hides compensation on postings.
 */
function ashbySalary(item: Json) {
  if (item.shouldDisplayCompensationOnJobPostings === false || !isObject(item.compensation)) return null
  const components = Array.isArray(item.compensation.summaryComponents) ? item.compensation.summaryComponents : []
  const salary = components.find((entry) => isObject(entry) && entry.compensationType === 'Salary')
  const summary = item.compensation.scrapeableCompensationSalarySummary ?? item.compensation.compensationTierSummary
  if (!isObject(salary)) return parseSalaryText(summary)
  return salaryFromAmounts({
    min: salary.minValue,
    max: salary.maxValue,
    currency: salary.currencyCode,
    period: text(salary.interval).replace(/^1\s+/, ''),
    text: summary,
  })
}

export const ashbyBoard = jsonBoardsAdapter(ASHBY)
