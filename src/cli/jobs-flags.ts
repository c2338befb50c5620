import {ValidationError} from '../core/errors.js'
import type {Verdict} from '../core/matching/verdicts.js'

interface JobsFlags {
  like: boolean
  dismiss: boolean
  undo: boolean
  explain: boolean
  dismissed: boolean
  reason?: string | undefined
  search?: string | undefined
  source?: string | undefined
  since?: string | undefined
}

/**
 * The combinations of `jobagent jobs` flags that mean nothing, refused with what to type instead; the verdict the
 * flags give, if any.
 */
export function checkJobsFlags(flags: JobsFlags, id: number | undefined): Verdict | null {
  const verdict = flags.like ? 'like' : flags.dismiss ? 'dismiss' : null
  if ([flags.like, flags.dismiss, flags.undo, flags.explain].filter(Boolean).length > 1) {
    throw new ValidationError('--like, --dismiss, --undo and --explain go one at a time', {
      hint: 'give one of them with the id of a job, e.g. jobagent jobs 17 --like',
    })
  }
  const given = (['like', 'dismiss', 'undo', 'explain'] as const).find((name) => flags[name])
  if (given && id === undefined) {
    throw new ValidationError(`--${given} goes with the id of a job`, {
      hint: `list the jobs and their ids with: jobagent jobs, then: jobagent jobs <ID> --${given}`,
    })
  }
  if (flags.reason !== undefined && !verdict) {
    throw new ValidationError('--reason goes with --like or --dismiss', {
      hint: 'e.g. jobagent jobs 23 --dismiss --reason "too senior"',
    })
  }
  const filter = (['search', 'source', 'since'] as const).find((name) => flags[name] !== undefined)
  if (filter && id !== undefined) {
    throw new ValidationError(`--${filter} filters the list and takes no id`, {
      hint: 'list with: jobagent jobs --search <text>; show one with: jobagent jobs <ID>',
    })
  }
  if (flags.dismissed && id !== undefined) {
    throw new ValidationError('--dismissed lists the dismissed jobs and takes no id', {
      hint: 'list them with: jobagent jobs --dismissed; show one with: jobagent jobs <ID>',
    })
  }
  return verdict
}

/** The refusal of --explain or --min-score when there is no profile to score with. */
export function needsProfile(explain: boolean): ValidationError {
  return new ValidationError(
    explain
      ? '--explain needs a profile to score the job against'
      : '--min-score needs a profile to score the jobs against',
    {hint: 'set one up with: jobagent profile (see docs/MATCHING.md)'},
  )
}
