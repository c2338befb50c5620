import {spawn} from 'node:child_process'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {BIN, ROOT, runCli, tempDir} from '../helpers/cli.js'

let home: ReturnType<typeof tempDir>

beforeEach(() => {
  home = tempDir('jobagent-e2e-serve-')
})

afterEach(() => {
  home.cleanup()
})

describe('jobagent serve (built)', () => {
  it('serves the API, the web page and the docs assets from the package, then stops on SIGTERM with 0', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
      cwd: ROOT,
      env: {PATH: process.env.PATH, HOME: home.path, JOBAGENT_HOME: home.path, NO_COLOR: '1'},
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk) => {
        stderr += chunk
        const match = /Listening on (http:\/\/\S+)/.exec(stderr)
        if (match?.[1]) resolve(match[1])
      })
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)))
    })
    const exit = new Promise<number | null>((resolve) => child.on('close', resolve))
    try {
      expect(await (await fetch(`${url}/applications`)).json()).toEqual({applications: [], count: 0})
      const page = await fetch(url, {headers: {accept: 'text/html'}})
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
      await page.arrayBuffer()
      const css = await fetch(`${url}/docs/swagger-ui.css`)
      expect(css.status).toBe(200)
      await css.arrayBuffer()
    } finally {
      child.kill('SIGTERM')
    }
    expect(await exit).toBe(0)
    expect(stderr).toMatch(/\| INFO \| jobagent\.http \| GET \/applications 200 \d+\.\d ms/)
  })

  it('refuses a non-loopback host without a token (exit 2) and an invalid CORS origin (exit 2)', async () => {
    const open = await runCli(['serve', '--host', '0.0.0.0'], {home: home.path})
    expect(open.code).toBe(2)
    expect(open.stderr).toContain('refusing to listen on 0.0.0.0 without an API token')
    const cors = await runCli(['serve', '--port', '0', '--cors-origin', 'http://localhost:5173/'], {home: home.path})
    expect(cors.code).toBe(2)
    expect(cors.stderr).toContain('invalid CORS origin "http://localhost:5173/"')
  })
})
