import {z} from 'zod'
import {salaryFromAmounts} from '../core/jobs/salary.js'
import {jsonFeedAdapter} from './board-adapter.js'
import {fixedPath, nonEmptyStrings, publicUrl, text} from './board-helpers.js'
import type {BoardSpec} from './board-source.js'

/** A placeholder Himalayas has sent in place of the company name (with `companyLogo: "thumbnail_url"`). */
const PLACEHOLDER_COMPANY = 'name'

/**
 * Himalayas browse API (`GET /jobs/api?limit=20`, then `&cursor=<nextCursor>`; it caps `limit` at 20 whatever is
 * asked). Terms: link back and name Himalayas; no resubmission to other job sites; data changes about daily.
 */
const HIMALAYAS: BoardSpec = {
  type: 'himalayas',
  defaultUrl: publicUrl('https://himalayas.app'),
  path: fixedPath('/jobs/api'),
  query: ({cursor}) => ({limit: 20, cursor}),
  paged: true,
  page: z.object({jobs: z.array(z.unknown()), nextCursor: z.unknown().optional()}).transform(({jobs, nextCursor}) => {
    const next = typeof nextCursor === 'number' ? String(nextCursor) : text(nextCursor) === '' ? undefined : nextCursor
    return {items: jobs, ...(typeof next === 'string' ? {next} : {})}
  }),
  expected: 'an object with a "jobs" array',
  job: (item) => {
    const name = text(item.companyName)
    const restrictions = nonEmptyStrings(item.locationRestrictions)
    return {
      title: item.title,
      company: name === '' || name === PLACEHOLDER_COMPANY ? item.companySlug : name,
      location: restrictions.length > 0 ? restrictions.join(', ') : 'Worldwide',
      url: item.applicationLink ?? item.guid,
      posted_date: item.pubDate,
      description: item.description,
      salary: salaryFromAmounts({
        min: item.minSalary,
        max: item.maxSalary,
        currency: item.currency,
        period: item.salaryPeriod,
      }),
      employment_type: item.employmentType,
      remote: true,
      regions: restrictions,
      timezones: item.timezoneRestrictions,
      seniority: nonEmptyStrings(item.seniority).join(', '),
      tags: item.categories,
    }
  },
}

export const himalayasBoard = jsonFeedAdapter(HIMALAYAS)
