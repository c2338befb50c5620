import {readdirSync, statSync} from 'node:fs'
import {readFile} from 'node:fs/promises'
import {extname, join, sep} from 'node:path'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
}

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream'
}

export interface StaticFile {
  file: string
  contentType: string
}

/**
 * Files of one directory by URL path (`/app.js`, `/img/logo.svg`), listed once when the app is built. Requests
 * are looked up in that list, so no request path is ever joined to a file system path.
 */
export class StaticFiles {
  private readonly files = new Map<string, StaticFile>()

  constructor(dir: string, options: {prefix?: string; only?: readonly string[]} = {}) {
    const names = options.only ?? listFiles(dir)
    for (const name of names) {
      const urlPath = `${options.prefix ?? ''}/${name.split(sep).join('/')}`
      this.files.set(urlPath, {file: join(dir, name), contentType: contentTypeOf(name)})
    }
  }

  has(urlPath: string): boolean {
    return this.files.has(urlPath)
  }

  get(urlPath: string): StaticFile | undefined {
    return this.files.get(urlPath)
  }

  /** The file's bytes with its content type, or null when it is not one of the listed files (or is gone). */
  async response(urlPath: string, headers: Record<string, string>): Promise<Response | null> {
    const entry = this.files.get(urlPath)
    if (!entry) return null
    try {
      const body = await readFile(entry.file)
      return new Response(body, {headers: {'Content-Type': entry.contentType, ...headers}})
    } catch {
      return null
    }
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
