import type {Context} from 'hono'
import {getMimeType} from 'hono/utils/mime'
import type {FileSet} from '../app/shipped-files.js'

/**
 * Files of one shipped directory by URL path (`/app.js`, `/img/logo.svg`), listed once when the app is built. Requests
 * are looked up in that list, so no request path is ever joined to a file system path, and a file added later or a
 * hidden one is never served. The bytes come from the file set (files on disk, or the single executable's assets),
 * read once each, on first request: the files are the installed program's and do not change while it runs, and a
 * read is synchronous (the executable's assets can only be read so).
 */
export class StaticFiles {
  private readonly files = new Map<string, string>()
  private readonly bodies = new Map<string, Uint8Array<ArrayBuffer>>()

  constructor(
    private readonly set: FileSet,
    options: {prefix?: string; only?: readonly string[]} = {},
  ) {
    const names = options.only ? set.names.filter((name) => options.only?.includes(name)) : set.names
    for (const name of names) this.files.set(`${options.prefix ?? ''}/${name}`, name)
  }

  has(urlPath: string): boolean {
    return this.files.has(urlPath)
  }

  /** The listed file's answer with `headers` added, or undefined when it is not listed (or could not be read). */
  async response(c: Context, urlPath: string, headers: Record<string, string>): Promise<Response | undefined> {
    const name = this.files.get(urlPath)
    const body = name === undefined ? undefined : this.body(name)
    if (!body) return undefined
    return c.body(body, 200, {
      'Content-Type': getMimeType(name ?? '') ?? 'application/octet-stream',
      'Content-Length': String(body.length),
      ...headers,
    })
  }

  private body(name: string): Uint8Array<ArrayBuffer> | undefined {
    let body = this.bodies.get(name)
    if (!body) {
      const read = this.set.read(name)
      if (!read) return undefined
      body = new Uint8Array(read)
      this.bodies.set(name, body)
    }
    return body
  }
}
