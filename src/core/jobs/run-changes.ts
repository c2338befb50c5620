import {textHash} from '../text-hash.js'
import type {FoundJob} from './dedupe.js'
import type {
  BoardCount,
  FoundJobChange,
  JobStore,
  KnownRow,
  LifecycleChanges,
  LifeOfJob,
  NewRunRecord,
  PreviewedJob,
  RunChangeSet,
  RunRecord,
  StoredJob,
  StoredRunView,
} from './job-store.js'
import {JOB_DETAILS} from './job-store.js'
import {
  changeOf,
  countBoardMisses,
  firstSeen,
  jobsToClose,
  matchFoundJobs,
  postingKeys,
  reopen,
  seenAgain,
} from './lifecycle.js'
import type {RunSourceOutcome} from './search-result.js'

/**
 * A run's change set (RunChangeSet): what the boards answered, set against what is stored, by the rules of a job's
 * life (lifecycle.ts, docs/LIFECYCLE.md). Pure: the job store hands over what it holds (StoredRunView) and writes
 * what comes back, both in the transaction that stores the run.
 */

/** One board's answer in a run: how it fared, and the canonical URLs of every job it returned before filters. */
export interface BoardAnswer {
  outcome: Pick<RunSourceOutcome, 'name' | 'ok' | 'count' | 'anomaly'>
  urlKeys: readonly string[]
}

/** What the boards answered in a run, as its change set is worked out from it. */
export interface RunAnswers {
  /** The run's jobs after jobagent's filters and deduplication, in the order found. */
  found: readonly FoundJob[]
  /** Every board of the run, those that failed included. */
  boards: readonly BoardAnswer[]
  /** The search criteria the boards were asked with, as text: a job is only closed by runs asked the same way. */
  criteria: string
  /** `run.closed_after_runs`: after how many runs in a row without it a job is closed. */
  closeAfterRuns: number
  /** Whether a job, as the run stores it, is new (countsAsNew); without it every job is, and the record's count stays. */
  isNew?: (job: PreviewedJob) => boolean
}

/** A stored run: its record, its jobs as stored in the order found, the new ones, and what changed in their lives. */
interface SavedRun {
  run: RunRecord
  jobs: StoredJob[]
  newJobs: StoredJob[]
  changes: LifecycleChanges
}

/**
 * A board whose answer can close jobs: it answered, with jobs, and nothing looked wrong. A board that failed,
 * returned nothing or an anomaly never closes anything.
 */
function closesJobs(outcome: BoardAnswer['outcome']): boolean {
  return outcome.ok && outcome.count > 0 && outcome.anomaly === null
}

/** The key a found job's description is stored under: where the run stored it away, or its text's. */
function descriptionHash({job, storedDescription}: FoundJob): string | null {
  return storedDescription?.hash ?? (job.description === null ? null : textHash(job.description))
}

/**
 * The fingerprint of what a run writes into a job's row besides when it was seen and by which run: the found
 * job's fields and keys, its description's key, and its life (`posted_date` after a board dropped it, reopened,
 * reposted, the other listings). Equal fingerprints, equal rows: the job is only touched. A daily run mostly sees
 * the jobs it saw yesterday, and rewriting each one's row (every index of every column set) makes `jobagent run`
 * over 10,000 unchanged jobs about a fifth slower, a second on a small machine.
 */
function rowFingerprint(
  {job, urlKey, identityKey}: FoundJob,
  description: string | null,
  life: Pick<StoredJob, 'posted_date' | 'reopened' | 'reposted' | 'also_on'>,
): string {
  return textHash(
    JSON.stringify([
      urlKey,
      identityKey,
      job.title,
      job.company,
      job.location,
      job.url,
      job.source,
      life.posted_date,
      description,
      life.reopened,
      life.reposted,
      life.also_on,
      ...JOB_DETAILS.map((field) => job[field]),
    ]),
  )
}

/** Each found job's change, with the stored job it was matched with (none for a new one). */
function foundJobChanges(
  found: readonly FoundJob[],
  stored: Pick<StoredRunView, 'byUrlKey' | 'latestByRole'>,
  seenAt: string,
): (FoundJobChange & {known: KnownRow | null})[] {
  const matches = matchFoundJobs(found, stored, seenAt)
  return found.map((one, index) => {
    const match = matches[index]
    const description = descriptionHash(one)
    if (!match) {
      const job = firstSeen(one, seenAt)
      const fingerprint = rowFingerprint(one, description, job)
      return {change: 'insert', found: one, job, descriptionHash: description, fingerprint, known: null}
    }
    const job = seenAgain(one, match, seenAt)
    const fingerprint = rowFingerprint(one, description, job)
    // A closed job's row says so outside what the fingerprint covers: it is rewritten.
    const unchanged = fingerprint === match.known.fingerprint && match.known.closed_at === null
    const change = unchanged ? 'touch' : 'update'
    return {change, found: one, job, descriptionHash: description, fingerprint, known: match.known}
  })
}

/** The jobs as a run would store them, in the order found, without writing anything (for --dry-run). */
export function previewRunJobs(
  store: Pick<JobStore, 'previewRun'>,
  found: readonly FoundJob[],
  seenAt: string,
): Promise<PreviewedJob[]> {
  return store.previewRun((stored) =>
    foundJobChanges(found, stored, seenAt).map((one) => (one.change === 'insert' ? {...one.job, id: null} : one.job)),
  )
}

/**
 * Records a run: its change set is worked out from what is stored and written by the store, in one transaction.
 * The stored jobs come in the order of the found ones: the run finds each one's stored description by it.
 */
export async function recordRun(
  store: Pick<JobStore, 'saveRun'>,
  run: NewRunRecord,
  answers: RunAnswers,
): Promise<SavedRun> {
  let decided: RunChangeSet | undefined
  // The store may try the transaction again (another process held the lock): the last change set is the one written.
  const written = await store.saveRun((stored) => {
    decided = decideRunChanges(run, answers, stored)
    return decided
  })
  const changeSet = decided as RunChangeSet
  const jobs = changeSet.jobs.map((one, index) => ({...one.job, id: written.ids[index] as number}))
  return {
    run: written.run,
    jobs,
    newJobs: changeSet.newJobs.map((index) => jobs[index] as StoredJob),
    changes: {...changeSet.changes, postings_closed: written.postingsClosed},
  }
}

/**
 * The change set of a run recorded as `run`: each found job inserted, updated or touched; then, per board whose
 * answer can close jobs, the counts of the jobs it listed and missed, and the closed jobs it listed again though the
 * run left them out reopened; then the jobs every board that counts them missed long enough closed; and the postings
 * of the applications tracked under the jobs that reopened and closed marked so.
 */
export function decideRunChanges(run: NewRunRecord, answers: RunAnswers, stored: StoredRunView): RunChangeSet {
  const seenAt = run.started_at
  const jobs = foundJobChanges(answers.found, stored, seenAt)
  const changes: RunChangeSet['changes'] = {closed: [], reopened: 0, reposted: 0}
  const foundAgain = new Map<number, FoundJobChange & {job: StoredJob}>()
  const reopenedFound: StoredJob[] = []
  for (const one of jobs) {
    if (one.known === null || one.change === 'insert') continue
    foundAgain.set(one.job.id, one)
    const change = changeOf(one.known, one.job)
    if (change.reopened) reopenedFound.push(one.job)
    if (change.reposted) changes.reposted += 1
  }
  changes.reopened += reopenedFound.length
  const boards = boardChanges(answers, jobs, foundAgain, stored)
  changes.reopened += boards.reopened.length
  changes.reposted += boards.reopened.length
  const closedLives = livesOf(boards.close, foundAgain, stored)
  changes.closed = closedLives.map(({id, title, company}) => ({id, title, company}))
  // A posting that a job found again after closing lists stays open, even when another job listing it closes now.
  const listedAgain = new Set(postingKeys(reopenedFound))
  const newJobs = jobs.flatMap((one, index) =>
    !answers.isNew || answers.isNew(one.change === 'insert' ? {...one.job, id: null} : one.job) ? [index] : [],
  )
  return {
    run: answers.isNew ? {...run, new_jobs: newJobs.length} : run,
    jobs: jobs.map(({known: _known, ...one}) => one),
    reopen: boards.reopened.map((life) => {
      const {reopened, reposted} = reopen(life)
      return {id: life.id, reopened, reposted}
    }),
    close: boards.close,
    closedAt: seenAt,
    boardCounts: boards.counts,
    postings: {
      reopened: [...postingKeys(boards.reopened), ...listedAgain],
      closed: postingKeys(closedLives).filter((key) => !listedAgain.has(key)),
    },
    newJobs,
    changes,
  }
}

/**
 * Per board whose answer can close jobs: the counts of the jobs it listed (stored now, or left out by jobagent's
 * own filters) and of those it did not, and the closed jobs among those it listed that the run did not find again
 * (those reopen as they are stored). Then the open jobs every board that counts them missed long enough.
 */
function boardChanges(
  answers: RunAnswers,
  jobs: readonly FoundJobChange[],
  foundAgain: ReadonlyMap<number, unknown>,
  stored: StoredRunView,
): {counts: RunChangeSet['boardCounts']; reopened: LifeOfJob[]; close: number[]} {
  const closing = answers.boards.filter((answer) => closesJobs(answer.outcome))
  if (closing.length === 0) return {counts: [], reopened: [], close: []}
  const criteria = textHash(answers.criteria)
  const storedKeys = new Set(answers.found.flatMap((found) => found.urlKeys))
  const rows = stored.boardCounts()
  const openBefore = new Map(rows.map((row) => [row.jobId, row.open]))
  const misses = new Map(rows.map((row) => [countKey(row.jobId, row.board), row]))
  const counts: RunChangeSet['boardCounts'] = []
  const reopened: LifeOfJob[] = []
  const reopenedIds = new Set<number>()
  for (const {outcome, urlKeys} of closing) {
    const board = outcome.name
    const listed = new Set<number>()
    jobs.forEach((one, index) => {
      if (!one.found.boards.includes(board)) return
      if (one.change === 'insert') counts.push({job: {found: index}, board, criteria, misses: 0})
      else listed.add(one.job.id)
    })
    const leftOut = urlKeys.filter((key) => !storedKeys.has(key))
    if (leftOut.length > 0) for (const id of stored.jobIdsOf(leftOut)) listed.add(id)
    const before = rows.filter((row) => row.board === board)
    for (const count of countBoardMisses(before, {criteria, listed})) {
      counts.push({job: {id: count.jobId}, board, criteria: count.criteria, misses: count.misses})
      misses.set(countKey(count.jobId, board), {...count, board, open: true})
    }
    const unseen = [...listed].filter((id) => !foundAgain.has(id) && !reopenedIds.has(id))
    for (const life of unseen.length > 0 ? stored.lives(unseen) : []) {
      if (life.closed_at === null) continue
      reopened.push(life)
      reopenedIds.add(life.id)
    }
  }
  const isOpen = (id: number) => foundAgain.has(id) || reopenedIds.has(id) || (openBefore.get(id) ?? true)
  const open: Pick<BoardCount, 'jobId' | 'misses'>[] = [...misses.values()].filter((row) => isOpen(row.jobId))
  return {counts, reopened, close: jobsToClose(open, answers.closeAfterRuns).sort((a, b) => a - b)}
}

const countKey = (jobId: number, board: string) => `${jobId}\u0000${board}`

/** The jobs a run closes, as marking their postings needs them: as the run stores them, or as stored. */
function livesOf(
  ids: readonly number[],
  foundAgain: ReadonlyMap<number, FoundJobChange & {job: StoredJob}>,
  stored: StoredRunView,
): LifeOfJob[] {
  const others = ids.filter((id) => !foundAgain.has(id))
  const lives = new Map((others.length > 0 ? stored.lives(others) : []).map((life) => [life.id, life]))
  return ids.flatMap((id) => {
    const again = foundAgain.get(id)
    const life = again ? {...again.job, url_key: again.found.urlKey} : lives.get(id)
    return life ? [life] : []
  })
}
