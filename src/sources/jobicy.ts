import {salaryFromAmounts} from '../core/jobs/salary.js'
import {jsonFeedAdapter} from './board-adapter.js'
import {fixedPath, jobsUnder, publicUrl, text} from './board-helpers.js'
import type {BoardSpec} from './board-source.js'
import {eligibility} from './shared.js'

/**
 * Jobicy (`GET /api/v2/remote-jobs?count=50`, `tag=` per tag; 50 is the documented maximum and there are no
 * pages). Terms: credit Jobicy with a direct link, apply through the original job URL, no redistribution to other
 * job sites, poll a few times a day at most.
 */
const JOBICY: BoardSpec = {
  type: 'jobicy',
  defaultUrl: publicUrl('https://jobicy.com'),
  path: fixedPath('/api/v2/remote-jobs'),
  query: ({tag}) => ({count: 50, tag}),
  searchesByTag: true,
  page: jobsUnder('jobs'),
  expected: 'an object with a "jobs" array',
  // pubDate is `2024-12-07 04:10:26` (naive, UTC) in older responses and `2026-08-15T15:28:49+00:00` in newer.
  job: (item) => ({
    title: item.jobTitle,
    company: item.companyName,
    location: item.jobGeo,
    url: item.url,
    posted_date: item.pubDate,
    description: item.jobDescription,
    // 2026: salaryMin/salaryMax numbers with salaryPeriod; 2024: annualSalaryMin/annualSalaryMax strings, yearly.
    salary:
      item.salaryMin !== undefined || item.salaryMax !== undefined
        ? salaryFromAmounts({
            min: item.salaryMin,
            max: item.salaryMax,
            currency: item.salaryCurrency,
            period: item.salaryPeriod,
          })
        : salaryFromAmounts({
            min: item.annualSalaryMin,
            max: item.annualSalaryMax,
            currency: item.salaryCurrency,
            period: 'year',
          }),
    employment_type: item.jobType,
    remote: true,
    ...eligibility(item.jobGeo),
    // "Any" is no level.
    seniority: text(item.jobLevel).toLowerCase() === 'any' ? null : item.jobLevel,
    tags: item.jobIndustry,
    board_id: item.id,
  }),
}

export const jobicyBoard = jsonFeedAdapter(JOBICY)
