/**
 * The slugs a company's name may have on an ATS, for `jobagent boards find`: boards are named after the company
 * in lower case, with or without hyphens, usually without its legal form.
 */

import {LEGAL_FORMS, nameWords} from './company-names.js'

/** Words a company adds to its name and often leaves out of its board's slug (`Acme Corp` posts as `acme`). */
const GENERIC_WORDS = new Set([
  'corp',
  'corporation',
  'co',
  'company',
  'group',
  'holdings',
  'technologies',
  'technology',
  'labs',
  'software',
  'hq',
])

const MAX_CANDIDATES = 4

/**
 * The slugs a company's name may have on an ATS, most likely first, at most four: `Acme Corp, Inc.` gives
 * `acmecorp`, `acme-corp`, `acme`. The name's words are those a name key reads (company-names.ts: accents dropped,
 * `&` read as `and`); legal forms (`Inc.`, `GmbH`) are left off, then the generic words at the end (`Corp`, `Labs`)
 * for the shortest form.
 */
export function slugCandidates(name: string): string[] {
  // A slug is written in ASCII letters and digits: a word's other letters break it.
  const words = nameWords(name).flatMap((word) => word.split(/[^a-z0-9]+/).filter((part) => part !== ''))
  const named = dropTrailing(words, LEGAL_FORMS)
  const core = dropTrailing(named, GENERIC_WORDS)
  const forms = [named.join(''), named.join('-'), core.join(''), core.join('-')]
  return [...new Set(forms.filter((slug) => slug !== ''))].slice(0, MAX_CANDIDATES)
}

/** `words` without the run of `dropped` words at its end, unless that would leave nothing. */
function dropTrailing(words: readonly string[], dropped: ReadonlySet<string>): string[] {
  let end = words.length
  while (end > 1 && dropped.has(words[end - 1] ?? '')) end -= 1
  return words.slice(0, end)
}

/** `acme` of `https://careers.acme.com/jobs`: the name a company's own careers URL gives, to try as a name; '' for none. */
export function nameOfHost(url: URL): string {
  return nameOfHostname(url.hostname)
}

/** `acme` of the host `careers.acme.com` (lower case, as a URL gives it); '' for an address or a one-label host. */
export function nameOfHostname(hostname: string): string {
  // An address or a host of one label (`localhost`) names no company.
  if (!/\.[a-z]{2,63}$/.test(hostname)) return ''
  const labels = hostname.toLowerCase().split('.')
  const known = ['www', 'careers', 'jobs', 'career', 'karriere', 'work', 'join', 'apply']
  while (labels.length > 2 && known.includes(labels[0] ?? '')) labels.shift()
  // `acme.co.uk`: the company's label sits before a second-level domain of its country.
  const secondLevel = ['co', 'com', 'org', 'net', 'ac'].includes(labels[labels.length - 2] ?? '') && labels.length > 2
  return labels[labels.length - (secondLevel ? 3 : 2)] ?? labels[0] ?? ''
}
