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
 * Live lines on a terminal's stream, drawn by `draw` (given the renderer) every `everyMs`: log lines print above
 * them, and `stop` clears them for good.
 */
function liveLines(stream: NodeJS.WriteStream, everyMs: number, draw: (render: (text: string) => void) => void) {
  const render = createLogUpdate(stream, {showCursor: false})
  let stopped = false
  const redraw = () => draw(render)
  const timer = setInterval(redraw, everyMs)
  timer.unref()
  return {
    redraw,
    /** A log line printed above the live lines, which are drawn again below it. */
    write(line: string): void {
      if (stopped) {
        stream.write(`${line}\n`)
        return
      }
      render.clear()
      stream.write(`${line}\n`)
      redraw()
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

/**
 * A live line per source (spinner, count, time) on a terminal's stderr while the boards are fetched.
 * Returns null when stderr is not a terminal (cron): then only the plain log lines appear.
 */
export function createSourceProgress(stream: NodeJS.WriteStream = process.stderr) {
  if (!stream.isTTY) return null
  const lines = new Map<string, Line>()
  let frame = 0
  const live = liveLines(stream, 100, (render) => {
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
  })
  return {
    write: live.write,
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
      live.redraw()
    },
    stop: live.stop,
  }
}

/** What the sweep's live line reads: the counts so far and the boards done per ATS. */
interface SweepProgressView {
  counts: {boards: number; jobs_seen: number; candidates: number; failed: number}
  by_ats: Record<string, number>
}

/**
 * A sweep's live lines on a terminal's stderr: boards done of the total, per ATS, jobs seen, candidates, the rate
 * and the time left; log lines print above them. Null off a terminal, where each ATS's log line says how it fared.
 */
export function createSweepProgress(stream: NodeJS.WriteStream = process.stderr) {
  if (!stream.isTTY) return null
  const started = performance.now()
  let total = 0
  let view: SweepProgressView | null = null
  let ranking: number | null = null
  const live = liveLines(stream, 250, (render) => {
    if (!view) return
    const {counts} = view
    const seconds = (performance.now() - started) / 1000
    const rate = seconds > 0 ? counts.boards / seconds : 0
    const left = rate > 0 && total > counts.boards ? Math.round((total - counts.boards) / rate) : 0
    const perAts = Object.entries(view.by_ats)
      .map(([ats, done]) => `${escapeControls(ats)} ${done}`)
      .join(', ')
    render(
      `${counts.boards} of ${total} boards, ${counts.jobs_seen} jobs seen, ${counts.candidates} candidates, ` +
        `${counts.failed} failed; ${rate.toFixed(1)} boards/s, about ${left} s left\n${perAts}` +
        (ranking === null ? '' : `\nEvery board asked: ranking ${ranking} candidates`),
    )
  })
  return {
    write: live.write,
    onStart(boards: number): void {
      total = boards
    },
    onProgress(progress: SweepProgressView): void {
      view = progress
    },
    /** Every board is asked: the candidates are ranked, which takes seconds for tens of thousands of them. */
    onRanking(candidates: number): void {
      ranking = candidates
      live.redraw()
    },
    stop: live.stop,
  }
}
