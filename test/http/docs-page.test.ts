import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {type RunningServer, startServer} from '../../src/http/server.js'
import {type TestApi, testApi} from '../helpers/http.js'
import {memoryLogger} from '../helpers/memory-log.js'
import {HAS_CHROMIUM, launchBrowser} from '../web/web-harness.js'

describe.skipIf(!HAS_CHROMIUM)('the docs page in a browser', () => {
  let api: TestApi
  let running: RunningServer

  beforeAll(async () => {
    api = testApi({app: {apiToken: 'docs-token-0123456789'}})
    running = await startServer(api.app, {host: '127.0.0.1', port: 0, logger: memoryLogger().logger})
  })

  afterAll(async () => {
    await running?.close()
    await api?.cleanup()
  })

  it('renders the API reference from local assets under the content security policy', async () => {
    const browser = await launchBrowser()
    try {
      const page = await browser.newPage()
      const problems: string[] = []
      const foreign: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text())
      })
      page.on('pageerror', (error) => problems.push(error.message))
      page.on('request', (request) => {
        if (!request.url().startsWith(running.url) && !request.url().startsWith('data:')) foreign.push(request.url())
      })
      await page.goto(`${running.url}/docs`)
      await page.locator('.swagger-ui .info .title').filter({hasText: 'jobagent'}).waitFor({timeout: 30_000})
      await page.getByText('/applications/{url}/status').first().waitFor()
      expect(foreign).toEqual([])
      expect(problems.filter((problem) => /Content Security Policy|Refused/i.test(problem))).toEqual([])
    } finally {
      await browser.close()
    }
  }, 90_000)
})
