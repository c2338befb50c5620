import {afterEach, describe, expect, it} from 'vitest'
import {silentLogger} from '../../src/core/logger.js'
import {rssBoard} from '../../src/sources/rss.js'
import {type MockServer, serveBody, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, fixtureText, testDeps} from '../helpers/source-fixtures.js'

// Generic feeds have no capture: the RSS 2.0 case uses the We Work Remotely capture, the Atom case a minimal
// document with the elements sources.md names (title, link, updated/published).
const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Example Jobs</title>
  <updated>2026-07-10T12:00:00Z</updated>
  <entry>
    <title type="html">Initech: Senior TPS Report Engineer &amp;amp; Lead</title>
    <link rel="alternate" href="https://jobs.example.org/1"/>
    <link rel="enclosure" href="https://jobs.example.org/1.pdf"/>
    <id>urn:jobs:1</id>
    <published>2026-07-09T08:00:00+02:00</published>
    <updated>2026-07-10T09:00:00Z</updated>
  </entry>
  <entry>
    <title>2026</title>
    <link href="https://jobs.example.org/2"/>
    <updated>2026-07-08</updated>
  </entry>
  <entry>
    <title>No link here</title>
  </entry>
</feed>`

let server: MockServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('generic RSS/Atom adapter', () => {
  it('reads an RSS 2.0 feed, with the company from "Company: Title"', async () => {
    server = await startMockServer({'/feed.rss': serveBody(fixtureText('weworkremotely.xml'), 'application/rss+xml')})
    const source = rssBoard.source({type: 'rss', url: `${server.url}/feed.rss`, name: 'wwr-mirror'}, testDeps())
    const jobs = await fetchAll(source)

    expect(source.name).toBe('rss:wwr-mirror')
    expect(jobs[1]).toMatchObject({
      title: 'Developer Advocate',
      company: 'Qase',
      location: '',
      url: 'https://weworkremotely.com/remote-jobs/qase-developer-advocate',
      source: 'wwr-mirror',
      posted_date: '2026-07-10T19:44:50Z',
    })
  })

  it('reads an Atom feed, naming it after the host when no name is configured', async () => {
    server = await startMockServer({'/jobs.atom': serveBody(ATOM, 'application/atom+xml')})
    const source = rssBoard.source({type: 'rss', url: `${server.url}/jobs.atom`}, testDeps())
    const jobs = await fetchAll(source)

    expect(source.name).toBe('rss:127.0.0.1')
    expect(jobs).toMatchObject([
      {
        title: 'Senior TPS Report Engineer & Lead',
        company: 'Initech',
        location: '',
        url: 'https://jobs.example.org/1',
        source: '127.0.0.1',
        posted_date: '2026-07-09T06:00:00Z',
      },
      {
        title: '2026',
        company: '127.0.0.1',
        location: '',
        url: 'https://jobs.example.org/2',
        source: '127.0.0.1',
        posted_date: '2026-07-08',
      },
    ])
  })

  it('skips an entry holding an element named __proto__ and keeps the rest, with one warning', async () => {
    const feed = ATOM.replace('<id>urn:jobs:1</id>', '<__proto__><polluted>yes</polluted></__proto__>')
    server = await startMockServer({'/feed': serveBody(feed, 'application/atom+xml')})
    const warnings: string[] = []
    const logger = {...silentLogger, warning: (message: string) => warnings.push(message)}
    const jobs = await fetchAll(rssBoard.source({type: 'rss', url: `${server.url}/feed`}, {...testDeps(), logger}))
    expect(jobs.map((job) => job.url)).toEqual(['https://jobs.example.org/2'])
    expect(warnings).toEqual(['1 item skipped: it holds an element named __proto__'])
  })

  it('fails on a document that is neither RSS nor Atom', async () => {
    server = await startMockServer({'/feed': serveBody('<?xml version="1.0"?><opml><body/></opml>', 'text/xml')})
    await expect(fetchAll(rssBoard.source({type: 'rss', url: `${server.url}/feed`}, testDeps()))).rejects.toThrow(
      'unexpected response shape: expected an RSS or Atom feed',
    )
  })

  it.each([
    ['a JSON board', JSON.stringify([{legal: 'x'}, [[{id: 1}]]]), 'the answer starts with "[", not "<"'],
    ['an empty answer', '  \n', 'the answer is empty'],
  ])('fails on %s with what it got, not with an XML error', async (_what, body, reason) => {
    server = await startMockServer({'/feed': serveBody(body, 'application/json')})
    await expect(fetchAll(rssBoard.source({type: 'rss', url: `${server.url}/feed`}, testDeps()))).rejects.toThrow(
      `unexpected response shape: expected an RSS or Atom feed (${reason})`,
    )
  })
})
