import type {AppContext} from '../app/context.js'
import {App} from './components/app.js'
import {render} from './ink.js'
import {dashboardServices} from './services.js'

interface DashboardOptions {
  colour: boolean
  stdout?: NodeJS.WriteStream
  stdin?: NodeJS.ReadStream
  /** For the browser opener (PATH, DISPLAY). */
  env?: NodeJS.ProcessEnv
}

// The alternate screen keeps the shell's scrollback as it was: on quit the dashboard disappears without a trace.
const ENTER_ALTERNATE_SCREEN = '\u001B[?1049h\u001B[H'
const LEAVE_ALTERNATE_SCREEN = '\u001B[?1049l'
const SHOW_CURSOR = '\u001B[?25h'

/** Draws the dashboard until the user quits (q, Ctrl-C) or the process is asked to stop, then restores the terminal. */
export async function runDashboard(context: AppContext, options: DashboardOptions): Promise<void> {
  const stdout = options.stdout ?? process.stdout
  const services = dashboardServices(context, {env: options.env ?? process.env})
  stdout.write(ENTER_ALTERNATE_SCREEN)
  const instance = render(<App services={services} colour={options.colour} />, {
    stdout,
    stdin: options.stdin ?? process.stdin,
    exitOnCtrlC: false,
  })
  // Our own listeners keep the process alive after Ink has unmounted, so the screen is restored below.
  const stop = () => instance.unmount()
  process.once('SIGTERM', stop)
  process.once('SIGHUP', stop)
  try {
    await instance.waitUntilExit()
  } finally {
    process.off('SIGTERM', stop)
    process.off('SIGHUP', stop)
    instance.cleanup()
    stdout.write(LEAVE_ALTERNATE_SCREEN + SHOW_CURSOR)
  }
}
