import {salaryFromAmounts} from '../core/jobs/salary.js'
import {jsonBoardsAdapter} from './board-adapter.js'
import {companyHost, fixedPath, jobsUnder, names, nonEmptyStrings, text, workplace} from './board-helpers.js'
import type {BoardSpec} from './board-source.js'
import {isObject, type Json} from './shared.js'

/**
 * One Pinpoint career site (`GET https://{company}.pinpointhq.com/postings.json`): every posting under `data`, in
 * one response. Postings carry no company name (the configured `company`, else the slug) and no date.
 */
const PINPOINT: BoardSpec = {
  type: 'pinpoint',
  defaultUrl: companyHost('pinpointhq.com'),
  path: fixedPath('/postings.json'),
  page: jobsUnder('data'),
  expected: 'an object with a "data" array',
  notFound: {
    what: (company) => `no Pinpoint career site "${company.slug}"`,
    hint: 'check the company name in the companies list (the name in https://<company>.pinpointhq.com)',
  },
  job: (item, company) => {
    const place: Json = isObject(item.location) ? item.location : {}
    const job: Json = isObject(item.job) ? item.job : {}
    const path = text(item.path)
    return {
      title: item.title,
      company: company.company ?? company.slug,
      location: [...new Set(nonEmptyStrings([place.city, place.province, place.name]).map((part) => part.trim()))].join(
        ', ',
      ),
      // The posting on the company's public career site, which `path` names when `url` is missing.
      url:
        item.url ?? (path.startsWith('/') ? `https://${encodeURIComponent(company.slug)}.pinpointhq.com${path}` : ''),
      posted_date: undefined,
      description: pinpointDescription(item),
      salary:
        item.compensation_visible === false
          ? null
          : salaryFromAmounts({
              min: item.compensation_minimum,
              max: item.compensation_maximum,
              currency: item.compensation_currency,
              period: item.compensation_frequency,
              text: item.compensation,
            }),
      employment_type: item.employment_type ?? item.employment_type_text,
      remote: workplace(item.workplace_type),
      tags: names([job.department, job.division]),
      board_id: item.id,
    }
  },
}

/** Pinpoint's posting in full: the description, then each section it fills under its heading. */
function pinpointDescription(item: Json): string {
  const sections: [unknown, unknown][] = [
    [item.key_responsibilities_header, item.key_responsibilities],
    [item.skills_knowledge_expertise_header, item.skills_knowledge_expertise],
    [item.benefits_header, item.benefits],
  ]
  return [
    text(item.description),
    ...sections
      .filter(([, body]) => text(body) !== '')
      .map(([header, body]) => `${text(header) === '' ? '' : `<h3>${text(header)}</h3>`}${text(body)}`),
  ].join('')
}

export const pinpointBoard = jsonBoardsAdapter(PINPOINT)
