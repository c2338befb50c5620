import {type Dispatch, useCallback, useEffect, useRef} from 'react'
import type {RunSummary} from '../../core/jobs/agent-run.js'
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
  const boards = `${answered} of ${summary.sources.length} board(s) answered${failed.length ? ` (failed: ${failed.join(', ')})` : ''}`
  if (summary.status === 'failed') return {text: `Search failed: ${summary.error} · ${boards}`, tone: 'error'}
  return success(`Search done: ${summary.jobs_found} job(s), ${summary.new_jobs} new · ${boards}`)
}

async function carryOut(services: DashboardServices, request: Exclude<Request, {kind: 'search'}>): Promise<Message> {
  switch (request.kind) {
    case 'track': {
      const application = await services.track(request.jobId, request.status, request.notes)
      return success(`Tracked ${request.label} as ${application.status}`)
    }
    case 'update': {
      const {previous, current} = await services.update(request.url, request.change)
      return success(
        'status' in request.change
          ? `${request.label}: ${previous.status} → ${current.status}`
          : `Notes saved for ${request.label}`,
      )
    }
    case 'export': {
      const {path, count} = await services.exportCsv()
      return success(`Exported ${count} application(s) to ${path}`)
    }
    case 'open': {
      const outcome = await services.open(request.url)
      if (outcome.opened) return {text: `Opened in the browser: ${request.url}`, tone: 'info'}
      return {text: `${request.url}  (cannot open a browser: ${outcome.reason})`, tone: 'info'}
    }
  }
}

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
      const changes = request.kind === 'track' || request.kind === 'update'
      carryOut(services, request)
        .then(async (message) => {
          if (changes) await reload()
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
