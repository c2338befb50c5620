import {createLogUpdate} from 'log-update'
import {escapeControls} from '../core/control-characters.js'
import type {SourceProgress} from '../core/jobs/job-search.js'

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

interface Line {
  state: SourceProgress['state']
  started: number
  text: string
}

/**
 * A live line per source (spinner, count, time) on a terminal's stderr while the boards are fetched.
 * Returns null when stderr is not a terminal (cron): then only the plain log lines appear.
 */
export function createSourceProgress(stream: NodeJS.WriteStream = process.stderr) {
  if (!stream.isTTY) return null
  const render = createLogUpdate(stream, {showCursor: false})
  const lines = new Map<string, Line>()
  let frame = 0
  let stopped = false
  const draw = () => {
    frame = (frame + 1) % FRAMES.length
    const now = performance.now()
    render(
      [...lines]
        .map(([name, line]) => {
          if (line.state === 'running') {
            return `${FRAMES[frame]} ${name}  ${((now - line.started) / 1000).toFixed(1)} s`
          }
          return `${line.state === 'done' ? '✔' : '✖'} ${name}  ${line.text}`
        })
        .join('\n'),
    )
  }
  const timer = setInterval(draw, 100)
  timer.unref()
  return {
    /** A log line printed above the live lines, which are drawn again below it. */
    write(line: string): void {
      if (stopped) {
        stream.write(`${line}\n`)
        return
      }
      render.clear()
      stream.write(`${line}\n`)
      draw()
    },
    onProgress(progress: SourceProgress): void {
      if (progress.state === 'running') {
        lines.set(escapeControls(progress.name), {state: 'running', started: performance.now(), text: ''})
      } else {
        const {outcome} = progress
        const text = outcome.ok
          ? `${outcome.count} jobs in ${(outcome.duration_ms / 1000).toFixed(1)} s`
          : `failed: ${escapeControls(outcome.error ?? '')}`
        lines.set(escapeControls(progress.name), {state: progress.state, started: 0, text})
      }
      draw()
    },
    stop(): void {
      if (stopped) return
      stopped = true
      clearInterval(timer)
      render.clear()
      render.done()
    },
  }
}
