import type {FoundJob} from '../core/jobs/dedupe.js'
import type {SearchCriteria} from '../core/jobs/job.js'
import type {JobSearch} from '../core/jobs/job-search.js'
import type {SearchResult} from '../core/jobs/search-result.js'
import {hasProfile, type Profile} from '../core/matching/profile.js'
import type {Matching} from '../core/matching/score.js'
import {loadKnowledge} from './knowledge.js'

/** The effective search criteria: config `search`, with the tags of a flag or request replacing the configured ones. */
export function criteriaFrom(search: SearchCriteria, overrides: {tags?: string[] | undefined} = {}): SearchCriteria {
  // A blank tag (`--tags ""`, `?tags=,`) would match every job of the boards that filter tags themselves and none
  // of the others: blanks are no tags, and no tags leave the configured ones.
  const tags = (overrides.tags ?? []).map((tag) => tag.trim()).filter((tag) => tag !== '')
  return tags.length > 0 ? {...search, tags} : search
}

/** A search's jobs with, in the same order, their keys and other listings (what the tracker judges them by). */
export interface FoundSearch extends SearchResult {
  found: FoundJob[]
}

/**
 * Searches without storing anything, for GET /jobs: concurrent callers asking for the same tags share one
 * search instead of hitting every board again.
 */
export class SharedSearch {
  private readonly inFlight = new Map<string, Promise<FoundSearch>>()

  constructor(
    private readonly openSearch: () => Promise<JobSearch>,
    private readonly search: SearchCriteria,
  ) {}

  /** `signal` stops the boards (the server shutting down); every caller of a shared search passes the same one. */
  run(tags: string[] = [], signal?: AbortSignal): Promise<FoundSearch> {
    const key = [...tags].sort().join(',')
    const running = this.inFlight.get(key)
    if (running) return running
    const promise = this.openSearch()
      .then((search) => search.search(criteriaFrom(this.search, {tags}), signal ? {signal} : {}))
      .then(({jobs, found, sources, searched_at}) => ({jobs, found, sources, searched_at}))
      .finally(() => this.inFlight.delete(key))
    this.inFlight.set(key, promise)
    return promise
  }
}

/** How jobs are scored: the profile with the search's salary floor and rates; null without a profile. */
export function matchingFrom(config: {profile: Profile; search: SearchCriteria}): Matching | null {
  if (!hasProfile(config.profile)) return null
  return {
    profile: config.profile,
    options: {minSalary: config.search.min_salary, fx: config.search.fx},
    knowledge: loadKnowledge(),
  }
}
