import {afterEach, describe, expect, it} from 'vitest'
import {hackerNewsBoard, parseHeading} from '../../src/sources/hackernews.js'
import {type MockServer, sendJson, startMockServer} from '../helpers/mock-board.js'
import {fetchAll, testDeps} from '../helpers/source-fixtures.js'

// No capture exists for the Algolia HN API: these responses are built from the documented shapes in sources.md
// (search response {hits, nbHits, page, nbPages, hitsPerPage, ...}; comment hits with objectID, author,
// comment_text, created_at, created_at_i, parent_id, story_id, story_title, _tags).

const STORY_ID = 44434576
const STORIES_PATH = '/api/v1/search_by_date?tags=story,author_whoishiring&query=who%20is%20hiring&hitsPerPage=5'
const commentsPath = (page: number) =>
  `/api/v1/search_by_date?tags=comment,story_${STORY_ID}&hitsPerPage=1000&page=${page}`

function searchResponse(hits: unknown[], page = 0, nbPages = 1) {
  return {
    hits,
    nbHits: hits.length,
    page,
    nbPages,
    hitsPerPage: 1000,
    exhaustiveNbHits: true,
    query: '',
    params: '',
    processingTimeMS: 1,
  }
}

function story(objectID: number, title: string, createdAt: string) {
  return {
    objectID: String(objectID),
    title,
    author: 'whoishiring',
    created_at: createdAt,
    created_at_i: Date.parse(createdAt) / 1000,
    _tags: ['story', 'author_whoishiring', `story_${objectID}`],
  }
}

function comment(objectID: number, text: string | null, parentId = STORY_ID) {
  return {
    objectID: String(objectID),
    author: 'someone',
    comment_text: text,
    created_at: '2026-07-01T15:02:11Z',
    created_at_i: 1782918131,
    parent_id: parentId,
    story_id: STORY_ID,
    story_title: 'Ask HN: Who is hiring? (July 2026)',
    story_url: null,
    _tags: ['comment', `author_someone`, `story_${STORY_ID}`],
  }
}

const STORIES = searchResponse([
  story(44434577, 'Ask HN: Who wants to be hired? (July 2026)', '2026-07-01T15:01:00Z'),
  story(STORY_ID, 'Ask HN: Who is hiring? (July 2026)', '2026-07-01T15:00:00Z'),
  story(44100000, 'Ask HN: Who is hiring? (June 2026)', '2026-06-02T15:00:00Z'),
])

let server: MockServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('Hacker News adapter', () => {
  it('reads the top-level posts of the newest "Who is hiring?" thread', async () => {
    server = await startMockServer({
      [STORIES_PATH]: (_req, res) => sendJson(res, STORIES),
      [commentsPath(0)]: (_req, res) =>
        sendJson(
          res,
          searchResponse([
            comment(
              44434600,
              'Acme Corp | Senior Backend Engineer | Berlin, Germany | ONSITE, REMOTE (EU) | https:&#x2F;&#x2F;acme.example&#x2F;jobs<p>We build things &amp; more.',
            ),
            comment(44434601, 'Great post, are you hiring juniors?', 44434600),
            comment(44434602, null),
          ]),
        ),
    })
    const jobs = await fetchAll(hackerNewsBoard.source({type: 'hackernews', url: server.url}, testDeps()))

    expect(server.requests.map((request) => request.url)).toEqual([STORIES_PATH, commentsPath(0)])
    expect(jobs).toMatchObject([
      {
        title: 'Senior Backend Engineer',
        company: 'Acme Corp',
        location: 'Berlin, Germany; ONSITE, REMOTE (EU)',
        url: 'https://news.ycombinator.com/item?id=44434600',
        source: 'hackernews',
        posted_date: '2026-07-01T15:02:11Z',
      },
    ])
  })

  it('reads further pages up to max_pages', async () => {
    server = await startMockServer({
      [STORIES_PATH]: (_req, res) => sendJson(res, STORIES),
      '/api/v1/search_by_date': (req, res) => {
        const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page'))
        sendJson(res, searchResponse([comment(44434700 + page, `Firm ${page} | Engineer | Remote`)], page, 10))
      },
    })
    const jobs = await fetchAll(hackerNewsBoard.source({type: 'hackernews', url: server.url, max_pages: 3}, testDeps()))

    expect(jobs.map((job) => job.company)).toEqual(['Firm 0', 'Firm 1', 'Firm 2'])
    expect(server.requests).toHaveLength(4)
  })

  it('fails clearly when no hiring thread is found', async () => {
    server = await startMockServer({[STORIES_PATH]: (_req, res) => sendJson(res, searchResponse([]))})
    await expect(fetchAll(hackerNewsBoard.source({type: 'hackernews', url: server.url}, testDeps()))).rejects.toThrow(
      'no "Ask HN: Who is hiring?" thread by whoishiring found',
    )
  })

  it('keeps the opening words as the title of a post without pipes', () => {
    expect(parseHeading('We are hiring Rust engineers in Lisbon!<p>Details')).toEqual({
      company: '',
      title: 'We are hiring Rust engineers in Lisbon!',
      location: '',
    })
    expect(parseHeading('<a href="https://x.example">X</a> | Designer | Remote')).toEqual({
      company: 'X',
      title: 'Designer',
      location: 'Remote',
    })
  })
})
