import {canonicalJobUrl} from '../url-identity.js'
import type {JobResponse} from './job.js'

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

/** Boards re-list the same job under new slugs and ids; company + title + location still match. */
export function jobIdentityKey(job: JobResponse): string {
  return `${companyKey(job.company)}|${normaliseKeyPart(job.title)}|${normaliseKeyPart(job.location)}`
}

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
 * One record of two sightings of a job: the seed's fields from the more complete one (the earlier on a tie), and
 * each detail from whichever has it: the longer description, the salary with amounts over one in words, and for
 * every other detail the kept record's value unless it has none.
 */
function merge(kept: JobResponse, other: JobResponse): JobResponse {
  const [base, extra] = completeness(other) > completeness(kept) ? [other, kept] : [kept, other]
  const list = <T>(a: T[], b: T[]) => (a.length > 0 ? a : b)
  return {
    ...base,
    description:
      (extra.description?.length ?? 0) > (base.description?.length ?? 0) ? extra.description : base.description,
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
}

/**
 * Removes duplicates within a run and across boards: first by canonical URL, then by the company + title +
 * location key. Each group becomes one record at the position of its first member, merged field by field
 * (`merge`): a salary from one board and a description from another are both kept.
 */
export function dedupeJobs(jobs: readonly JobResponse[]): JobResponse[] {
  const kept: JobResponse[] = []
  const slotByUrl = new Map<string, number>()
  const slotByKey = new Map<string, number>()
  for (const job of jobs) {
    const url = canonicalJobUrl(job.url)
    const key = jobIdentityKey(job)
    const slot = slotByUrl.get(url) ?? slotByKey.get(key)
    if (slot === undefined) {
      slotByUrl.set(url, kept.length)
      slotByKey.set(key, kept.length)
      kept.push(job)
      continue
    }
    slotByUrl.set(url, slot)
    slotByKey.set(key, slot)
    const current = kept[slot]
    if (current) kept[slot] = merge(current, job)
  }
  return kept
}
