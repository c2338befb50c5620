import {join} from 'node:path'
import {AgentRun, type DigestSender, type RunOptions, type RunSummary} from '../core/jobs/agent-run.js'
import type {SearchCriteria} from '../core/jobs/job.js'
import type {SearchResult} from '../core/jobs/search-result.js'
import type {AppContext} from './context.js'
import {acquireRunLock} from './run-lock.js'
import {VERSION} from './version.js'

/** The effective search criteria: config `search`, with the tags of a flag or request replacing the configured ones. */
export function criteriaFrom(context: AppContext, overrides: {tags?: string[]} = {}): SearchCriteria {
  return {...context.config.search, ...(overrides.tags && overrides.tags.length > 0 ? {tags: overrides.tags} : {})}
}

/** Runs the agent under the run lock so overlapping runs (cron and a manual one) never both run. */
export async function runAgent(
  context: AppContext,
  options: Omit<RunOptions, 'version' | 'mode' | 'criteria'> & {tags?: string[]},
): Promise<RunSummary> {
  const release = acquireRunLock(join(context.paths.dataDir, 'run.lock'))
  try {
    const run = new AgentRun({
      applications: context.applicationStore,
      jobs: context.jobStore,
      search: await context.openJobSearch(),
      notifications: await context.openDigestSender(),
      logger: context.logger,
    })
    const {tags, ...rest} = options
    return await run.run({
      ...rest,
      version: VERSION,
      mode: context.config.mode,
      criteria: criteriaFrom(context, {tags}),
    })
  } finally {
    release()
  }
}

/**
 * Searches without storing anything, for GET /jobs: concurrent callers asking for the same tags share one
 * search instead of hitting every board again.
 */
/** The context's shared search (one per context, so concurrent GET /jobs calls find each other). */
export function sharedSearchOf(context: AppContext): SharedSearch {
  return context.memo('sharedSearch', () => new SharedSearch(context))
}

export class SharedSearch {
  private readonly inFlight = new Map<string, Promise<SearchResult>>()

  constructor(private readonly context: AppContext) {}

  search(tags: string[] = []): Promise<SearchResult> {
    const key = [...tags].sort().join(',')
    const running = this.inFlight.get(key)
    if (running) return running
    const promise = this.context
      .openJobSearch()
      .then((search) => search.search(criteriaFrom(this.context, {tags})))
      .then(({jobs, sources, searched_at}) => ({jobs, sources, searched_at}))
      .finally(() => this.inFlight.delete(key))
    this.inFlight.set(key, promise)
    return promise
  }
}

export type {DigestSender}
