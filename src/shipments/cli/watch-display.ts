import {createLogUpdate} from 'log-update'
import type {AppContext} from '../../app/context.js'
import {errorDocument} from '../../cli/render/error-document.js'
import type {Style} from '../../cli/style.js'
import {escapeControls, escapeJsonControls} from '../../core/control-characters.js'
import {followRemoteShipment} from '../app/remote-shipment-events.js'
import {followShipment, type WatchEvent} from '../app/shipment-watcher.js'
import {shipmentSlice} from '../app/slice.js'
import type {UnifiedState} from '../core/unified-state.js'
import {renderShipmentChange, renderUnifiedState} from './render.js'

interface WatchDisplay {
  show(event: WatchEvent): void
  stop(): void
}

interface DisplayOptions {
  json: boolean
  style: Style
  stdout?: NodeJS.WriteStream
  stderr?: NodeJS.WriteStream
}

/**
 * `jobagent shipment show ID --watch`: follows the shipment in the configured stores, or with `server` on that
 * server's event stream, until SIGINT or SIGTERM.
 */
export function watchShipment(
  context: AppContext,
  id: string,
  options: DisplayOptions & {server?: string | undefined},
): Promise<void> {
  const {server} = options
  const token = context.env.JOBAGENT_API_TOKEN || undefined
  return watchUntilSignal(
    server
      ? (signal, onEvent) => followRemoteShipment(server, id, {signal, onEvent, ...(token ? {token} : {})})
      : async (signal, onEvent) => {
          const intervalMs = context.config.shipments.events.interval_ms
          await followShipment(await context.openSlice(shipmentSlice), id, {signal, onEvent, intervalMs})
        },
    options,
  )
}

/** Follows a shipment until SIGINT or SIGTERM, then stops cleanly. */
async function watchUntilSignal(
  follow: (signal: AbortSignal, onEvent: (event: WatchEvent) => void) => Promise<void>,
  options: DisplayOptions,
): Promise<void> {
  const stop = new AbortController()
  const onSignal = () => stop.abort()
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal)
  const display = createWatchDisplay(options)
  try {
    await follow(stop.signal, (event) => display.show(event))
  } finally {
    display.stop()
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal)
  }
}

/**
 * What `jobagent shipment show ID --watch` prints: with --json one JSON line per state (or error); on a terminal the
 * state drawn again in place; elsewhere (a pipe, a log file) the state once, then one line per change.
 */
function createWatchDisplay(options: DisplayOptions): WatchDisplay {
  const stdout = options.stdout ?? process.stdout
  const stderr = options.stderr ?? process.stderr
  if (options.json) {
    return {
      show(event) {
        const line = event.type === 'state' ? event.state : errorDocument(event.error)
        stdout.write(`${escapeJsonControls(JSON.stringify(line))}\n`)
      },
      stop() {},
    }
  }
  return stdout.isTTY ? liveDisplay(stdout, options.style) : lineDisplay(stdout, stderr, options.style)
}

/** The state drawn in place, the time it was read and any failure to read it again below it. */
function liveDisplay(stdout: NodeJS.WriteStream, style: Style): WatchDisplay {
  const render = createLogUpdate(stdout, {showCursor: false})
  let state: UnifiedState | undefined
  const draw = (problem?: string) => {
    const body = state ? renderUnifiedState(state, style) : ''
    const status = problem
      ? style.yellow(problem)
      : style.dim(`Read at ${state?.generated_at ?? '-'}; watching for changes (Ctrl-C to stop)`)
    render(`${body}\n\n${status}`)
  }
  return {
    show(event) {
      if (event.type === 'state') {
        state = event.state
        draw()
      } else {
        draw(`${escapeControls(event.error.message)}; trying again (Ctrl-C to stop)`)
      }
    },
    stop() {
      render.done()
    },
  }
}

function lineDisplay(stdout: NodeJS.WriteStream, stderr: NodeJS.WriteStream, style: Style): WatchDisplay {
  let previous: UnifiedState | undefined
  return {
    show(event) {
      if (event.type === 'error') {
        stderr.write(`Error: ${escapeControls(event.error.message)}; trying again\n`)
        return
      }
      stdout.write(
        `${previous ? renderShipmentChange(previous, event.state) : renderUnifiedState(event.state, style)}\n`,
      )
      previous = event.state
    },
    stop() {},
  }
}
