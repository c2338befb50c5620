import {z} from 'zod'
import {salaryFromAmounts} from '../core/jobs/salary.js'
import {jsonFeedAdapter} from './board-adapter.js'
import {publicUrl, text} from './board-helpers.js'
import type {BoardSpec} from './board-source.js'
import {isObject} from './shared.js'

/** Results per Adzuna page; a shorter page is the last one. 50 is the most its search answers with. */
const ADZUNA_PAGE_SIZE = 50

/** The currency of Adzuna's salary amounts, by the country searched (amounts are yearly, in its currency). */
const ADZUNA_CURRENCIES: Readonly<Record<string, string>> = {
  at: 'EUR',
  au: 'AUD',
  be: 'EUR',
  br: 'BRL',
  ca: 'CAD',
  ch: 'CHF',
  de: 'EUR',
  es: 'EUR',
  fr: 'EUR',
  gb: 'GBP',
  in: 'INR',
  it: 'EUR',
  mx: 'MXN',
  nl: 'EUR',
  nz: 'NZD',
  pl: 'PLN',
  sg: 'SGD',
  us: 'USD',
  za: 'ZAR',
}

/**
 * Adzuna's job search (`GET /v1/api/jobs/{country}/search/{page}`, `what=` per tag), with the user's own
 * `app_id` and `app_key` as query parameters: both are masked wherever a request URL is shown. Pages of 50 up to
 * `max_pages`. Jobs link to Adzuna's landing page (`redirect_url`), which the terms require.
 */
const ADZUNA: BoardSpec = {
  type: 'adzuna',
  defaultUrl: publicUrl('https://api.adzuna.com'),
  path: (_board, {config, page}) => `/v1/api/jobs/${encodeURIComponent(config.country ?? '')}/search/${page}`,
  query: ({tag, config}) => ({
    app_id: config.app_id,
    app_key: config.app_key,
    results_per_page: ADZUNA_PAGE_SIZE,
    what: tag,
  }),
  searchesByTag: true,
  paged: true,
  page: z
    .object({results: z.array(z.unknown())})
    .transform(({results}) => ({items: results, ...(results.length >= ADZUNA_PAGE_SIZE ? {next: 'more'} : {})})),
  expected: 'an object with a "results" array',
  job: (item, _board, config) => {
    const category = isObject(item.category) ? item.category.label : undefined
    return {
      // Search terms come back highlighted in titles (`DevOps <strong>Engineer</strong>`).
      title: text(item.title).replace(/<\/?strong>/gi, ''),
      company: isObject(item.company) ? item.company.display_name : '',
      location: isObject(item.location) ? item.location.display_name : '',
      url: item.redirect_url,
      posted_date: item.created,
      // A snippet of the ad, cut off with `…`; highlights are HTML.
      description: item.description,
      // `salary_is_predicted: "1"` is Adzuna's estimate, not the employer's: no salary then.
      salary:
        String(item.salary_is_predicted ?? '0') === '0'
          ? salaryFromAmounts({
              min: item.salary_min,
              max: item.salary_max,
              currency: ADZUNA_CURRENCIES[config.country ?? ''],
              period: 'year',
            })
          : null,
      // `contract_type` permanent or contract, `contract_time` full_time or part_time: contract work wins.
      employment_type: [
        item.contract_type === 'contract' ? 'contract' : undefined,
        item.contract_time,
        item.contract_type,
      ],
      tags: [category],
      board_id: item.id,
    }
  },
}

export const adzunaBoard = jsonFeedAdapter(ADZUNA)
