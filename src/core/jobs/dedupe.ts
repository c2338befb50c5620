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

/**
 * Removes duplicates within a run and across boards: first by canonical URL, then by the company + title +
 * location key. Of each group the most complete record is kept, at the position of the group's first member.
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
    if (current && completeness(job) > completeness(current)) kept[slot] = job
  }
  return kept
}
