import {parseSalaryText} from '../core/jobs/salary.js'
import {jsonFeedAdapter} from './board-adapter.js'
import {fixedPath, jobsUnder, publicUrl} from './board-helpers.js'
import type {BoardSpec} from './board-source.js'
import {eligibility} from './shared.js'

/**
 * Remotive (`GET /api/remote-jobs`, `search=` per tag). Terms: link back to the Remotive URL, name Remotive,
 * no resubmission to other job sites, at most about 4 requests a day.
 */
const REMOTIVE: BoardSpec = {
  type: 'remotive',
  defaultUrl: publicUrl('https://remotive.com'),
  path: fixedPath('/api/remote-jobs'),
  query: ({tag}) => ({search: tag}),
  searchesByTag: true,
  page: jobsUnder('jobs'),
  expected: 'an object with a "jobs" array',
  // publication_date is naive ISO (`2026-07-28T14:23:05`); normalisePostedDate takes it as UTC.
  job: (item) => ({
    title: item.title,
    company: item.company_name,
    location: item.candidate_required_location,
    url: item.url,
    posted_date: item.publication_date,
    description: item.description,
    salary: parseSalaryText(item.salary),
    employment_type: item.job_type,
    remote: true,
    ...eligibility(item.candidate_required_location),
    tags: [item.category, ...(Array.isArray(item.tags) ? item.tags : [])],
    board_id: item.id,
  }),
}

export const remotiveBoard = jsonFeedAdapter(REMOTIVE)
