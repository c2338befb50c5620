import {z} from 'zod'
import {jsonBoardsAdapter} from './board-adapter.js'
import {placeName, publicUrl, slugPath, text, workplace} from './board-helpers.js'
import type {BoardSpec} from './board-source.js'
import {isObject, type Json} from './shared.js'

/** Workable's careers page API gives the employment type in one word (`full`, `part`). */
const WORKABLE_TYPES: Readonly<Record<string, string>> = {full: 'full time', part: 'part time'}

/**
 * One Workable account (`GET https://apply.workable.com/api/v1/widget/accounts/{account}?details=true`): the
 * account's `name` and all its published jobs in one response; `details=true` adds each job's description. The
 * page pairs each job with the account's name, the company of every job. The answer of the careers page API
 * (`POST /api/v3/accounts/{account}/jobs`: `{total, results, nextPage}`, without the account's name or
 * descriptions), as a mirror may keep it, is read the same way.
 */
const WORKABLE: BoardSpec = {
  type: 'workable',
  defaultUrl: publicUrl('https://apply.workable.com'),
  path: slugPath('/api/v1/widget/accounts/'),
  query: () => ({details: 'true'}),
  page: z.union([
    z
      .object({name: z.unknown().optional(), jobs: z.array(z.unknown())})
      .transform(({name, jobs}) => ({items: jobs.map((job) => ({job, account: name}))})),
    z.object({results: z.array(z.unknown())}).transform(({results}) => ({items: results.map((job) => ({job}))})),
  ]),
  expected: 'an object with a "jobs" array (or the careers page\'s "results" array)',
  notFound: {
    what: (account) => `no Workable account "${account.slug}"`,
    hint: 'check the account name in the accounts list (the name in https://apply.workable.com/<account>)',
  },
  job: (entry, account) => {
    if (!isObject(entry.job)) return null
    const item = entry.job
    const places = (Array.isArray(item.locations) ? item.locations : [])
      .filter(isObject)
      .filter((place) => place.hidden !== true)
      .map((place) => placeName([place.city, place.region, place.country]))
    const single: Json = isObject(item.location) ? item.location : item
    const location =
      places.filter(Boolean).join('; ') || placeName([single.city, single.state ?? single.region, single.country])
    const type = text(item.type).toLowerCase()
    return {
      title: item.title,
      company: text(entry.account) === '' ? (account.company ?? account.slug) : entry.account,
      location,
      // The job's page on apply.workable.com (as `url` names it) when the answer leaves both links out.
      url:
        text(item.url) ||
        text(item.shortlink) ||
        (text(item.shortcode) === '' ? '' : `https://apply.workable.com/j/${encodeURIComponent(text(item.shortcode))}`),
      posted_date: item.published_on ?? item.created_at ?? item.published,
      description: item.description,
      employment_type: item.employment_type ?? WORKABLE_TYPES[type] ?? item.type,
      // The widget's `telecommuting`; the careers page's `workplace` (`on_site`, `hybrid`, `remote`), else `remote`.
      remote:
        typeof item.telecommuting === 'boolean'
          ? item.telecommuting
          : (workplace(item.workplace) ?? (typeof item.remote === 'boolean' ? item.remote : null)),
      seniority: item.experience,
      tags: [...(Array.isArray(item.department) ? item.department : [item.department]), item.function],
      board_id: item.shortcode,
    }
  },
}

export const workableBoard = jsonBoardsAdapter(WORKABLE)
