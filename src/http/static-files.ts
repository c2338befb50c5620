import {readdirSync, statSync} from 'node:fs'
import {join, sep} from 'node:path'
import {serveStatic} from '@hono/node-server/serve-static'
import type {Context, MiddlewareHandler} from 'hono'

/**
 * Files of one directory by URL path (`/app.js`, `/img/logo.svg`), listed once when the app is built and served
 * with @hono/node-server's serveStatic. Requests are looked up in that list, so no request path is ever joined to
 * a file system path, and a file added later or a hidden one is never served.
 */
export class StaticFiles {
  private readonly files = new Map<string, MiddlewareHandler>()

  constructor(dir: string, options: {prefix?: string; only?: readonly string[]} = {}) {
    const names = options.only ?? listFiles(dir)
    for (const name of names) {
      const urlPath = `${options.prefix ?? ''}/${name.split(sep).join('/')}`
      this.files.set(urlPath, serveStatic({path: join(dir, name)}))
    }
  }

  has(urlPath: string): boolean {
    return this.files.has(urlPath)
  }

  /** The listed file's answer with `headers` added, or undefined when it is not listed (or is gone). */
  async response(c: Context, urlPath: string, headers: Record<string, string>): Promise<Response | undefined> {
    const serve = this.files.get(urlPath)
    const served = serve ? await serve(c, async () => {}) : undefined
    if (!served) return undefined
    for (const [name, value] of Object.entries(headers)) served.headers.set(name, value)
    return served
  }
}

/** Regular files below `dir`, relative to it; hidden files are skipped; a missing directory has none. */
function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, {recursive: true, encoding: 'utf8'}).filter(
      (name) => !name.split(sep).some((part) => part.startsWith('.')) && statSync(join(dir, name)).isFile(),
    )
  } catch {
    return []
  }
}
