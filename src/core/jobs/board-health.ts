import type {RunRecord} from './job-store.js'
import type {RunSourceOutcome} from './search-result.js'
import {entrySources, type SourceConfig} from './source-config.js'

/** One configured source and how it fared the last time a run included it (`jobagent boards list`). */
export interface ConfiguredBoard {
  /** The source's name in runs and logs: `greenhouse:gitlab`, `remoteok`. */
  name: string
  type: string
  /** The board, site, company or account of an ATS entry; null for a source of its own. */
  slug: string | null
  enabled: boolean
  /** The last run that included it and its outcome there; null when no run of the ledger read did. */
  last: {run_id: number; started_at: string; outcome: RunSourceOutcome} | null
}

/**
 * Every source the `sources` list names, enabled or not, in the list's order, each with its outcome in the newest
 * run that included it. `runs` is the run ledger, newest first. A dead board shows in its outcome's anomaly.
 */
export function boardHealth(sources: readonly SourceConfig[], runs: readonly RunRecord[]): ConfiguredBoard[] {
  return sources.flatMap((config) =>
    entrySources(config).map(({name, slug}) => {
      const run = runs.find((candidate) => candidate.sources.some((source) => source.name === name))
      const outcome = run?.sources.find((source) => source.name === name)
      return {
        name,
        type: config.type,
        slug,
        enabled: config.enabled !== false,
        last: run && outcome ? {run_id: run.id, started_at: run.started_at, outcome} : null,
      }
    }),
  )
}
