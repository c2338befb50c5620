import {type Dispatch, useCallback, useEffect, useRef} from 'react'
import {EDITABLE, type EditableField} from '../../core/applications/application.js'
import type {GivenVerdict} from '../../core/jobs/job-catalog.js'
import type {Verdict} from '../../core/matching/verdicts.js'
import type {RunSummary} from '../../core/run/agent-run.js'
import type {Action, Message, Request} from '../dashboard-state.js'
import type {DashboardServices} from '../services.js'
import {describeError} from './use-dashboard-data.js'

const success = (text: string): Message => ({text, tone: 'success'})
const failure = (error: unknown): Message => ({text: `Error: ${describeError(error)}`, tone: 'error'})

/**
 * A change refused because the tracker changed meanwhile (tracked elsewhere, removed): its hint names a command
 * line, and the data read again shows the dashboard user what happened.
 */
const changeFailure = (error: unknown): Message => {
  const kind = (error as {kind?: string} | null)?.kind
  if (kind !== 'conflict' && kind !== 'not_found') return failure(error)
  return {text: `Error: ${(error as Error).message}`, tone: 'error'}
}

function searchMessage(summary: RunSummary): Message {
  const answered = summary.sources.filter((source) => source.ok).length
  const failed = summary.sources.filter((source) => !source.ok).map((source) => source.name)
  // Short enough for one line of an 80-column terminal with a failed board named: the status line never wraps.
  const boards = `${answered}/${summary.sources.length} boards answered${failed.length ? ` (failed: ${failed.join(', ')})` : ''}`
  if (summary.status === 'failed') return {text: `Search failed: ${summary.error} · ${boards}`, tone: 'error'}
  return success(`Search done: ${summary.jobs_found} job(s), ${summary.new_jobs} new · ${boards}`)
}

/** What a request did: the message, and the actions that follow it once the data is read again. */
interface Outcome {
  message: Message
  follow?: Action[]
}

async function carryOut(services: DashboardServices, request: Exclude<Request, {kind: 'search'}>): Promise<Outcome> {
  switch (request.kind) {
    case 'track': {
      const application = await services.track(request.jobId, request.status, request.notes)
      return {message: success(`Tracked ${request.label} as ${application.status}`)}
    }
    case 'update': {
      const {previous, current} = await services.update(request.ref, request.change)
      const text =
        'status' in request.change
          ? `${request.label}: ${previous.status} → ${current.status}`
          : `Notes saved for ${request.label}`
      return {message: success(text)}
    }
    case 'edit': {
      const {application, fields} = request
      await services.edit(application.ref, fields)
      const names = Object.keys(fields).map((field) => EDITABLE[field as EditableField].label.toLowerCase())
      return {message: success(`Edited ${application.label}: ${names.join(', ')}`)}
    }
    case 'remove':
      await services.remove(request.application.ref)
      return {
        message: success(`Removed ${request.application.label} from lists and stats; u brings it back`),
        follow: [{type: 'last-removed', application: request.application}],
      }
    case 'restore':
      await services.restore(request.application.ref)
      return {
        message: success(`Restored ${request.application.label}`),
        follow: [{type: 'last-removed', application: null}],
      }
    case 'verdict':
      return verdictOutcome(request, await services.giveVerdict(request.job.jobId, request.verdict, request.reason))
    case 'undo-verdict': {
      const undone = await services.undoVerdict(request.job.jobId)
      const what = undone.verdict === 'like' ? 'like' : 'dismissal'
      return {
        message: success(`Took back the ${what} of ${request.job.label}`),
        // A job whose dismissal is taken back is listed again: the selection goes to it.
        follow: [
          {type: 'last-verdict', job: null},
          {type: 'select-job', jobId: request.job.jobId},
        ],
      }
    }
    case 'export': {
      const {path, count} = await services.exportCsv()
      return {message: success(`Exported ${count} application(s) to ${path}`)}
    }
    case 'open': {
      const outcome = await services.open(request.url)
      if (outcome.opened) return {message: {text: `Opened in the browser: ${request.url}`, tone: 'info'}}
      return {message: {text: `${request.url}  (cannot open a browser: ${outcome.reason})`, tone: 'info'}}
    }
  }
}

/** `Dismissed Engineer at Acme as "too senior"; u undoes`, and the rule several such dismissals suggest. */
function verdictOutcome(request: Extract<Request, {kind: 'verdict'}>, given: GivenVerdict): Outcome {
  const {verdict, previous, proposal} = given
  const done =
    verdict.verdict === 'like'
      ? `Liked ${request.job.label}`
      : `Dismissed ${request.job.label}${verdict.reason ? ` as "${verdict.reason}"` : ''}`
  const before = previous && previous.verdict !== verdict.verdict ? ` (it was ${pastTense(previous.verdict)})` : ''
  const suggestion = proposal ? ` · Suggestion: ${proposal}` : ''
  return {
    message: success(`${done}${before}; u undoes${suggestion}`),
    follow: [{type: 'last-verdict', job: request.job}],
  }
}

const pastTense = (verdict: Verdict) => (verdict === 'like' ? 'liked' : 'dismissed')

/**
 * Carries out the requests the reducer queued, through the services, and reports each outcome as a message.
 * Changes are written at once and the data is read again so every view shows them.
 */
export function useRequestRunner(options: {
  services: DashboardServices
  requests: Request[]
  dispatch: Dispatch<Action>
  reload: () => Promise<void>
}) {
  const {services, requests, dispatch, reload} = options
  const search = useRef<{controller: AbortController; done: Promise<void>} | null>(null)

  const startSearch = useCallback(() => {
    const controller = new AbortController()
    // Changes made meanwhile by cron or the API show at once; the search's own results follow when it ends.
    void reload()
    const done = services
      .runSearch({
        signal: controller.signal,
        onProgress: (progress) => dispatch({type: 'search-progress', progress, at: Date.now()}),
      })
      .then(
        (summary) => dispatch({type: 'search-finished', message: searchMessage(summary)}),
        (error: unknown) => dispatch({type: 'search-finished', message: failure(error)}),
      )
      .then(() => {
        search.current = null
        return reload()
      })
    search.current = {controller, done}
  }, [services, dispatch, reload])

  useEffect(() => {
    if (requests.length === 0) return
    dispatch({type: 'requests-taken', count: requests.length})
    for (const request of requests) {
      if (request.kind === 'search') {
        startSearch()
        continue
      }
      const changes = request.kind !== 'export' && request.kind !== 'open'
      carryOut(services, request)
        .then(async ({message, follow = []}) => {
          if (changes) await reload()
          for (const action of follow) dispatch(action)
          dispatch({type: 'message', message})
        })
        .catch(async (error: unknown) => {
          // A change refused because the tracker changed meanwhile (tracked elsewhere, removed): the data is read
          // again, so the screen shows what the tracker holds now.
          if (changes) await reload()
          dispatch({type: 'message', message: changes ? changeFailure(error) : failure(error)})
        })
    }
  }, [requests, services, dispatch, reload, startSearch])

  // Unmounted without q (SIGTERM, SIGHUP): the boards are not left running.
  useEffect(() => () => search.current?.controller.abort(), [])

  /** Stops a running search (its boards are aborted) and waits until it has released the run lock. */
  const stop = useCallback(async () => {
    const running = search.current
    if (!running) return
    running.controller.abort()
    await running.done
  }, [])

  return {stop}
}
