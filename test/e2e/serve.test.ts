import {spawn} from 'node:child_process'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {BIN, ROOT, runCli, tempDir} from '../helpers/cli.js'
import {serveBuilt} from '../helpers/serve.js'

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
      expect(await (await fetch(`${url}/applications`)).json()).toEqual({
        applications: [],
        count: 0,
        total: 0,
        limit: 100,
        offset: 0,
      })
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

  it('answers GET /jobs with a 503 naming the entry when the sources edited by hand are invalid; the rest works', async () => {
    writeFileSync(
      join(home.path, 'config.json'),
      JSON.stringify({
        sources: [
          {type: 'greenhouse'},
          {type: 'rss', url: 'file:///etc/passwd'},
          {type: 'remoteok', url: 'https://user:hunter2@mirror.example.org/api'},
          {type: 'remoteok', url: 'https://user:hunter2@mirror.example.org/api'},
        ],
      }),
      {mode: 0o600},
    )
    const server = await serveBuilt(home.path)
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await fetch(`${server.url}/jobs`)
        expect(response.status).toBe(503)
        expect(response.headers.get('content-type')).toMatch(/^application\/json/)
        const text = await response.text()
        const {error} = JSON.parse(text)
        expect(error.code).toBe('configuration')
        expect(error.message).toMatch(/^invalid configuration: sources\[0\]\.boards is required for greenhouse; /)
        expect(error.details).toEqual([
          {field: 'sources[0].boards', message: 'sources[0].boards is required for greenhouse'},
          {
            field: 'sources[1].url',
            message: expect.stringMatching(/^sources\[1\]\.url must be an absolute http\(s\) URL/),
          },
          {field: 'sources[3]', message: 'sources[3] repeats the source remoteok of sources[2]'},
        ])
        expect(text).not.toContain('hunter2')
        expect(text).not.toMatch(/\n\s+at /)
      }
      const applications = await fetch(`${server.url}/applications`)
      expect(applications.status).toBe(200)
      expect(await applications.json()).toEqual({applications: [], count: 0, total: 0, limit: 100, offset: 0})
      const health = await fetch(`${server.url}/health`)
      expect(health.status).toBe(200)
      await health.arrayBuffer()
      expect(server.stderr()).toMatch(/\| ERROR \| jobagent\.http \| GET \/jobs: sources\[0\]\.boards is required/)
      expect(server.stderr()).toMatch(/GET \/jobs 503 /)
    } finally {
      await server.stop()
    }
  })

  it('refuses a non-loopback host without a token (exit 2) and an invalid CORS origin (exit 2)', async () => {
    const open = await runCli(['serve', '--host', '0.0.0.0'], {home: home.path})
    expect(open.code).toBe(2)
    expect(open.stderr).toContain('refusing to listen on 0.0.0.0 without an API token')
    const cors = await runCli(['serve', '--port', '0', '--cors-origin', 'http://localhost:5173/'], {home: home.path})
    expect(cors.code).toBe(2)
    expect(cors.stderr).toContain('invalid CORS origin "http://localhost:5173/"')
  })

  it('refuses a part --only does not know, naming the parts it takes (exit 2)', async () => {
    const only = await runCli(['serve', '--port', '0', '--only', 'jobs'], {home: home.path})
    expect(only.code).toBe(2)
    expect(only.stderr).toContain('Expected --only=jobs to be one of: shipments')
  })
})
