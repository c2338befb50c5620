import {canonicalJobUrl} from '../url-identity.js'
import * as z from '../zod-mini.js'
import {cutText, JOB_TEXT_LIMITS} from './board-limits.js'
import type {StoredDescription} from './description-store.js'
import type {JobResponse} from './job.js'

/**
 * The most other listings a found or stored job remembers. A role listed tens of thousands of times under other
 * links would otherwise carry every one of them into each answer, notification and row that shows the job.
 */
export const ALSO_ON_LIMIT = 20

const COMPANY_SUFFIXES = /\b(inc|llc|ltd|limited|gmbh|ag|sa|sas|bv|plc|corp|corporation|co)\b/g

/** Lower case, no accents, no punctuation, single spaces: "Zürich, CH " and "zurich ch" are equal. */
export function normaliseKeyPart(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

/**
 * A company name as deduplication and the company block list compare it: normalised and without legal suffixes,
 * so "Acme, Inc.", "ACME GmbH" and "acme" are one company.
 */
export function companyKey(name: string): string {
  return normaliseKeyPart(name).replace(COMPANY_SUFFIXES, '').replace(/\s+/g, ' ').trim()
}

/**
 * The role a posting offers: company + title. Boards re-list the same job under new slugs and ids, post one role
 * once per city, and several boards carry the same posting; company and title still match. Deduplication, the
 * job store and the repost rule all recognise "the same role" by this key alone.
 */
export function jobIdentityKey(job: Pick<JobResponse, 'company' | 'title'>): string {
  return `${companyKey(job.company)}|${normaliseKeyPart(job.title)}`
}

/** A job with the keys it is recognised by, worked out once. */
export interface KeyedJob {
  /** The job; its `description` is null while the text is stored away (`storedDescription`). */
  job: JobResponse
  /** Where the description's text is while a storing run holds it out of memory (DescriptionStore); else null. */
  storedDescription: StoredDescription | null
  /** The canonical URL (canonicalJobUrl). */
  urlKey: string
  /** The role key (jobIdentityKey). */
  identityKey: string
}

/**
 * Another place a job was seen: a board, the URL it listed the job under and, where the board gave one, that
 * listing's location, so a role posted once per country says which link is which country's.
 */
export const otherListingSchema = z.object({source: z.string(), url: z.string(), location: z.optional(z.string())})

export type OtherListing = z.output<typeof otherListingSchema>

/** One role as a search found it: the merged record and every board and URL that listed it. */
export interface FoundJob extends KeyedJob {
  /** The canonical URLs of every listing of the role, `urlKey` first. */
  urlKeys: string[]
  /** The names of the boards that listed it (`greenhouse:gitlab`, `remoteok`). */
  boards: string[]
  /** The other listings: boards and URLs besides the record's own, the first ALSO_ON_LIMIT of them. */
  also_on: OtherListing[]
}

export function keyJob(job: JobResponse): KeyedJob {
  return {job, storedDescription: null, urlKey: canonicalJobUrl(job.url), identityKey: jobIdentityKey(job)}
}

/** A job's listing as another listing of its role names it: its board, its URL and its location, if any. */
export function otherListing(job: Pick<JobResponse, 'source' | 'url' | 'location'>): OtherListing {
  const location = job.location.trim()
  return location === '' ? {source: job.source, url: job.url} : {source: job.source, url: job.url, location}
}

/** A job and where its description is. */
type Described = Pick<KeyedJob, 'job' | 'storedDescription'>

/** The length of a job's description, in memory or stored away. */
const descriptionLength = ({job, storedDescription}: Described) =>
  storedDescription?.length ?? job.description?.length ?? 0

function completeness(job: JobResponse): number {
  return (
    (job.title ? 1 : 0) +
    (job.company ? 1 : 0) +
    (job.location ? 1 : 0) +
    (job.posted_date ? 1 : 0) +
    // A full timestamp says more than a plain date.
    (job.posted_date && job.posted_date.length > 10 ? 1 : 0)
  )
}

/** A salary with amounts says more than one the board only wrote as text. */
const salaryWeight = (job: JobResponse) =>
  job.salary === null ? 0 : job.salary.annual_min !== null || job.salary.annual_max !== null ? 2 : 1

/**
 * One record of two listings of a job: the seed's fields from the more complete one (the earlier on a tie), and
 * each detail from whichever has it: the longer description, the salary with amounts over one in words, and for
 * every other detail the kept record's value unless it has none. Returns whether `other` gave the seed's fields.
 */
function merge(kept: Described, other: Described): Described & {otherIsBase: boolean} {
  const otherIsBase = completeness(other.job) > completeness(kept.job)
  const [baseRecord, extraRecord] = otherIsBase ? [other, kept] : [kept, other]
  const {job: base} = baseRecord
  const {job: extra} = extraRecord
  const described = descriptionLength(extraRecord) > descriptionLength(baseRecord) ? extraRecord : baseRecord
  const list = <T>(a: T[], b: T[]) => (a.length > 0 ? a : b)
  const job = {
    ...base,
    description: described.job.description,
    salary: salaryWeight(extra) > salaryWeight(base) ? extra.salary : base.salary,
    employment_type: base.employment_type ?? extra.employment_type,
    remote: base.remote ?? extra.remote,
    regions: list(base.regions, extra.regions),
    timezones: list(base.timezones, extra.timezones),
    seniority: base.seniority ?? extra.seniority,
    tags: list(base.tags, extra.tags),
    board_id: base.board_id ?? extra.board_id,
    company_url: base.company_url ?? extra.company_url,
  }
  return {job, storedDescription: described.storedDescription, otherIsBase}
}

/**
 * The locations of one role's listings as one: each place once (compared as the keys compare text), the
 * record's own first, joined with "; " and cut to the location limit.
 */
function collapseLocations(own: string, members: readonly KeyedJob[]): string {
  const seen = new Set<string>()
  const places: string[] = []
  for (const place of [own, ...members.map((member) => member.job.location)]) {
    const key = normaliseKeyPart(place)
    if (key === '' || seen.has(key)) continue
    seen.add(key)
    places.push(place.trim())
  }
  return cutText(places.join('; '), JOB_TEXT_LIMITS.location)
}

/** One found job of a group of listings of the same role. */
function combine(members: readonly (KeyedJob & {board: string})[]): FoundJob {
  const [first, ...rest] = members as [KeyedJob & {board: string}, ...(KeyedJob & {board: string})[]]
  let record: Described = first
  let base: KeyedJob = first
  for (const member of rest) {
    const merged = merge(record, member)
    record = merged
    if (merged.otherIsBase) base = member
  }
  const {job, storedDescription} = record
  if (rest.length === 0) return {...first, urlKeys: [first.urlKey], boards: [first.board], also_on: []}
  // A set, so a role listed under many links costs time in proportion to its listings.
  const urlKeys = new Set([base.urlKey])
  const also_on: OtherListing[] = []
  for (const member of members) {
    if (urlKeys.has(member.urlKey)) continue
    urlKeys.add(member.urlKey)
    if (also_on.length < ALSO_ON_LIMIT) also_on.push(otherListing(member.job))
  }
  return {
    job: {...job, location: collapseLocations(job.location, members)},
    storedDescription,
    urlKey: base.urlKey,
    identityKey: base.identityKey,
    urlKeys: [...urlKeys],
    boards: [...new Set(members.map((member) => member.board))],
    also_on,
  }
}

/**
 * Removes duplicates within a run and across boards: listings with the same canonical URL or the same role
 * (company + title, whatever the location) are one job at the position of the first listing, merged field by
 * field (`merge`: a salary from one board and a description from another are both kept), with the places of
 * every listing collapsed into its location and the other listings in `also_on`.
 */
export function dedupeJobs(jobs: readonly (KeyedJob & {board: string})[]): FoundJob[] {
  const groups: (KeyedJob & {board: string})[][] = []
  const slotByUrl = new Map<string, number>()
  const slotByKey = new Map<string, number>()
  for (const keyed of jobs) {
    const slot = slotByUrl.get(keyed.urlKey) ?? slotByKey.get(keyed.identityKey)
    if (slot === undefined) {
      slotByUrl.set(keyed.urlKey, groups.length)
      slotByKey.set(keyed.identityKey, groups.length)
      groups.push([keyed])
      continue
    }
    slotByUrl.set(keyed.urlKey, slot)
    slotByKey.set(keyed.identityKey, slot)
    groups[slot]?.push(keyed)
  }
  return groups.map(combine)
}
