import {type Dispatch, useCallback, useEffect, useRef, useState} from 'react'
import type {ApplicationInFull} from '../../core/applications/application-in-full.js'
import {isJobagentError} from '../../core/errors.js'
import type {Action} from '../dashboard-state.js'
import type {DashboardData, DashboardServices} from '../services.js'

/** An error as one line: the message, and the hint when there is one. */
export function describeError(error: unknown): string {
  if (isJobagentError(error)) return error.hint ? `${error.message} (${error.hint})` : error.message
  return error instanceof Error ? error.message : String(error)
}

/**
 * Reads everything the dashboard shows from the services when it starts, and again on `reload()` (after a change
 * or a search), handing it to the dashboard's state. Moving the selection reads nothing: the data stays in memory.
 */
export function useDashboardData(services: DashboardServices, dispatch: Dispatch<Action>) {
  const reload = useCallback(async () => {
    try {
      dispatch({type: 'data', data: await services.load()})
    } catch (caught) {
      dispatch({type: 'load-failed', error: `Cannot read the data: ${describeError(caught)}`})
    }
  }, [services, dispatch])
  useEffect(() => {
    void reload()
  }, [reload])
  return {reload}
}

/** What the detail pane shows of an application beyond its record; empty lists when it could not be read. */
export type ApplicationExtras = Pick<ApplicationInFull, 'history' | 'interviews' | 'contacts'>

const NO_EXTRAS: ApplicationExtras = {history: [], interviews: [], contacts: []}

/**
 * The history, interviews and contacts of the application in the detail pane (by its short id), read when the
 * pane shows it and kept until the data is reloaded (a change adds to the history).
 */
export function useApplicationExtras(
  services: DashboardServices,
  ref: string | undefined,
  data: DashboardData | null,
): ApplicationExtras | null {
  const cache = useRef({data, read: new Map<string, ApplicationExtras>()})
  if (cache.current.data !== data) cache.current = {data, read: new Map()}
  const {read} = cache.current
  const [, setLoaded] = useState(0)
  useEffect(() => {
    if (ref === undefined || read.has(ref)) return
    let current = true
    services
      .inFull(ref)
      .catch(() => NO_EXTRAS)
      .then(({history, interviews, contacts}) => {
        read.set(ref, {history, interviews, contacts})
        if (current) setLoaded((count) => count + 1)
      })
    return () => {
      current = false
    }
  }, [services, ref, read])
  return ref === undefined ? null : (read.get(ref) ?? null)
}
