import type {JobResponse} from '../jobs/job.js'
import {type Matching, scoreJobs} from '../matching/score.js'

/**
 * Which jobs of one board's list are candidates: those the profile's role and skills find relevant from what the
 * list says (title, tags, place, level; no description) and no gate holds back. The scorer is the one a run ranks
 * with, asked for every part of each score, so a candidate is what a run would not gate on the same fields; the
 * description, read for candidates only, then decides the score.
 */
export function candidateIndexes(jobs: readonly JobResponse[], matching: Matching): number[] {
  if (jobs.length === 0) return []
  // A list that carries descriptions (Personio's) is gated on the same fields as one that does not.
  const listed = jobs.map((job) => (job.description === null ? job : {...job, description: null}))
  const scored = scoreJobs(listed, matching.profile, {
    ...matching.options,
    knowledge: matching.knowledge,
    explain: true,
  })
  const kept: number[] = []
  scored.forEach((one, index) => {
    const relevance = one.parts.find((part) => part.part === 'relevance')?.value ?? 0
    const gates = one.parts.find((part) => part.part === 'gates')?.value ?? 1
    if (relevance > 0 && gates >= 1) kept.push(index)
  })
  return kept
}
