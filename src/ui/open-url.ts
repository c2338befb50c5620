import {spawn} from 'node:child_process'
import {accessSync, constants} from 'node:fs'
import {delimiter, join} from 'node:path'
import {isHttpUrl} from '../core/url-identity.js'

export type OpenOutcome = {opened: true; command: string} | {opened: false; reason: string}

interface Opener {
  command: string
  args: (url: string) => string[]
}

const OPENERS: Partial<Record<NodeJS.Platform, Opener>> = {
  darwin: {command: 'open', args: (url) => [url]},
  win32: {command: 'rundll32', args: (url) => ['url.dll,FileProtocolHandler', url]},
}
const XDG_OPEN: Opener = {command: 'xdg-open', args: (url) => [url]}

function onPath(command: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, command)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // Not in this directory: try the next one.
    }
  }
  return null
}

/**
 * Opens a posting in the desktop's browser, detached so the dashboard keeps running. Without a desktop (an SSH
 * session has no DISPLAY) xdg-open would start a text browser inside our terminal, so the caller shows the URL.
 */
export function openInBrowser(
  url: string,
  options: {env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform} = {},
): Promise<OpenOutcome> {
  const env = options.env ?? process.env
  const platform = options.platform ?? process.platform
  if (!isHttpUrl(url)) {
    return Promise.resolve({opened: false, reason: 'not a web address'})
  }
  const opener = OPENERS[platform] ?? XDG_OPEN
  if (opener === XDG_OPEN && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return Promise.resolve({opened: false, reason: 'no graphical display'})
  }
  const path = platform === 'win32' ? opener.command : onPath(opener.command, env)
  if (!path) return Promise.resolve({opened: false, reason: `${opener.command} not found`})
  return new Promise((resolve) => {
    const child = spawn(path, opener.args(url), {detached: true, stdio: 'ignore', env})
    child.once('error', (error) => resolve({opened: false, reason: `${opener.command} failed: ${error.message}`}))
    child.once('spawn', () => {
      child.unref()
      resolve({opened: true, command: opener.command})
    })
  })
}
