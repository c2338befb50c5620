import fc from 'fast-check'
import '../helpers/fuzz.js'
import {describe, expect, it} from 'vitest'
import {isJobagentError} from '../../src/core/errors.js'
import type {JobResponse} from '../../src/core/jobs/job.js'
import type {SourceConfig} from '../../src/core/jobs/source-config.js'
import {silentLogger} from '../../src/core/logger.js'
import type {HttpClient} from '../../src/http-client/index.js'
import {parseFeed} from '../../src/sources/feed.js'
import {parseHeading} from '../../src/sources/hackernews.js'
import {createSources} from '../../src/sources/index.js'
import {EMPTY_CRITERIA} from '../helpers/criteria.js'

// Random responses through every board adapter, from the shape check down to the mapping: an adapter either
// returns jobs in the JobResponse shape of docs/SOURCES.md ("What a job holds") or rejects with the project's error (a JobagentError). A
// TypeError, a RangeError or a raw parser error escaping the adapter is a bug: the run would only show its message.

const NUM_RUNS = 300

// --- what the boards might send ------------------------------------------------------------------------------------

/** Text as boards really mangle it: entities (some invalid), markup, control characters, odd Unicode, dates. */
const boardText = fc.oneof(
  fc.string({unit: 'grapheme', maxLength: 30}),
  fc.string({unit: 'binary', maxLength: 30}),
  fc
    .array(
      fc.constantFrom(
        '&amp;',
        '&lt;b&gt;',
        '&#99999999;',
        '&#xD800;',
        '&#0;',
        '&bogus;',
        '&nbsp;',
        'SÃ£o',
        '\u0000',
        '\u001b[2J',
        '\u0085',
        '\u2028',
        ' \t\n ',
        '<p>',
        'Acme | Engineer | Remote',
        'Co: Title',
        '🇩🇪',
      ),
      {maxLength: 6},
    )
    .map((parts) => parts.join('')),
)

const dateLike = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e15, 8.64e15, 8.64e15 + 1, -1, 0, 1e11, 253402300800, 253402300800000),
  fc.date({noInvalidDate: false}).map((date) => (Number.isNaN(date.getTime()) ? 'not a date' : date.toISOString())),
  fc.constantFrom('2026-02-30', '2026-07-10 22:45:30', 'Fri, 10 Jul 2026 22:45:30 +0000', '275760-09-13', '9999-12-31'),
  fc.constantFrom('2026-07-10T25:00:00Z', '2026-07-10T22:45:30+99:99', '1e3', '  ', '0001-01-01T00:00:00Z'),
)

const fieldValue = fc.oneof(
  {arbitrary: boardText, weight: 4},
  {arbitrary: dateLike, weight: 2},
  {arbitrary: fc.webUrl(), weight: 2},
  {arbitrary: fc.jsonValue({maxDepth: 2}), weight: 2},
  {arbitrary: fc.constantFrom(null, true, false, [], {}), weight: 1},
)

/** An object with the board's field names (and a few others), each with any value. */
function itemWith(fields: string[]) {
  return fc.dictionary(fc.oneof(fc.constantFrom(...fields), fc.string({maxLength: 8})), fieldValue, {maxKeys: 12})
}

// --- the boards -----------------------------------------------------------------------------------------------------

interface Board {
  type: string
  entry: Partial<SourceConfig>
  /** A response in roughly the board's shape, with random items. */
  shaped: fc.Arbitrary<unknown>
  format: 'json' | 'xml'
  /** A board that asks each job's detail: the detail requests (by a part of their URL) and a random answer to them. */
  detail?: {path: string; shaped: fc.Arbitrary<unknown>}
}

const items = (fields: string[]) => fc.array(fc.oneof(itemWith(fields), fc.jsonValue({maxDepth: 1})), {maxLength: 8})

const HN_STORY = 44434576
const HN_STORIES = {
  hits: [{objectID: String(HN_STORY), title: 'Ask HN: Who is hiring? (July 2026)', created_at_i: 1782918000}],
}

const JSON_BOARDS: Board[] = [
  {
    type: 'remoteok',
    entry: {},
    format: 'json',
    shaped: items([
      'id',
      'company',
      'position',
      'location',
      'url',
      'date',
      'epoch',
      'description',
      'salary_min',
      'salary_max',
      'tags',
    ]),
  },
  {
    type: 'remotive',
    entry: {},
    format: 'json',
    shaped: fc.record({
      jobs: items([
        'title',
        'company_name',
        'candidate_required_location',
        'url',
        'publication_date',
        'description',
        'salary',
        'job_type',
        'category',
        'tags',
      ]),
    }),
  },
  {
    type: 'arbeitnow',
    entry: {},
    format: 'json',
    shaped: fc.record({
      data: items([
        'title',
        'company_name',
        'location',
        'remote',
        'url',
        'created_at',
        'description',
        'job_types',
        'tags',
      ]),
      links: fc.record({next: fc.oneof(fc.constant(null), boardText)}),
    }),
  },
  {
    type: 'jobicy',
    entry: {},
    format: 'json',
    shaped: fc.record({
      jobs: items([
        'jobTitle',
        'companyName',
        'jobGeo',
        'url',
        'pubDate',
        'jobDescription',
        'salaryMin',
        'salaryMax',
        'annualSalaryMin',
        'salaryCurrency',
        'salaryPeriod',
        'jobType',
        'jobLevel',
      ]),
    }),
  },
  {
    type: 'himalayas',
    entry: {},
    format: 'json',
    shaped: fc.record({
      jobs: items([
        'title',
        'companyName',
        'companySlug',
        'locationRestrictions',
        'applicationLink',
        'guid',
        'pubDate',
        'description',
        'minSalary',
        'maxSalary',
        'currency',
        'salaryPeriod',
        'seniority',
        'timezoneRestrictions',
        'employmentType',
      ]),
      nextCursor: fc.oneof(fc.constant(null), boardText, fc.integer()),
    }),
  },
  {
    type: 'greenhouse',
    entry: {boards: ['acme']},
    format: 'json',
    shaped: fc.record({
      jobs: items(['title', 'company_name', 'location', 'absolute_url', 'first_published', 'content', 'departments']),
    }),
  },
  {
    type: 'lever',
    entry: {sites: ['acme']},
    format: 'json',
    shaped: fc.oneof(
      items(['text', 'categories', 'hostedUrl', 'createdAt', 'description', 'lists', 'salaryRange', 'workplaceType']),
      fc.record({ok: fc.boolean(), error: fieldValue}),
    ),
  },
  {
    type: 'ashby',
    entry: {boards: ['acme']},
    format: 'json',
    shaped: fc.record({
      jobs: items([
        'title',
        'isListed',
        'location',
        'secondaryLocations',
        'jobUrl',
        'publishedAt',
        'descriptionHtml',
        'compensation',
        'workplaceType',
        'employmentType',
      ]),
    }),
  },
  {
    type: 'pinpoint',
    entry: {companies: ['acme']},
    format: 'json',
    shaped: fc.record({
      data: items([
        'id',
        'title',
        'url',
        'path',
        'description',
        'key_responsibilities',
        'benefits',
        'compensation',
        'compensation_minimum',
        'compensation_maximum',
        'compensation_currency',
        'compensation_frequency',
        'compensation_visible',
        'employment_type',
        'workplace_type',
        'job',
        'location',
      ]),
    }),
  },
  {
    type: 'teamtailor',
    entry: {companies: ['acme']},
    format: 'json',
    shaped: fc.record({
      items: items(['id', 'title', 'url', 'date_published', 'content_html', '_jobposting']),
    }),
  },
  {
    type: 'workingnomads',
    entry: {},
    format: 'json',
    shaped: items(['title', 'company_name', 'location', 'url', 'pub_date', 'description', 'category_name', 'tags']),
  },
  {
    type: 'bamboohr',
    entry: {companies: ['acme']},
    format: 'json',
    // The list under `result`; each opening's detail (`/careers/{id}/detail`) under `result.jobOpening`.
    shaped: fc.record({
      meta: fieldValue,
      result: items([
        'id',
        'jobOpeningName',
        'departmentLabel',
        'employmentStatusLabel',
        'employmentType',
        'location',
        'atsLocation',
        'isRemote',
        'locationType',
      ]),
    }),
    detail: {
      path: '/detail',
      shaped: fc.oneof(
        fc.record({
          result: fc.record({
            jobOpening: itemWith([
              'jobOpeningShareUrl',
              'jobOpeningName',
              'description',
              'compensation',
              'datePosted',
              'minimumExperience',
              'location',
              'atsLocation',
              'locationType',
              'employmentStatusLabel',
            ]),
          }),
        }),
        fc.jsonValue({maxDepth: 2}),
      ),
    },
  },
  {
    type: 'breezy',
    entry: {companies: ['acme']},
    format: 'json',
    shaped: items([
      'id',
      'friendly_id',
      'name',
      'url',
      'published_date',
      'type',
      'location',
      'locations',
      'department',
      'salary',
      'company',
    ]),
  },
  {
    type: 'recruitee',
    entry: {companies: ['acme']},
    format: 'json',
    shaped: fc.record({
      offers: items([
        'id',
        'title',
        'slug',
        'company_name',
        'location',
        'locations',
        'careers_url',
        'published_at',
        'description',
        'requirements',
        'salary',
        'employment_type_code',
        'remote',
        'hybrid',
        'on_site',
        'department',
        'tags',
      ]),
    }),
  },
  {
    type: 'rippling',
    entry: {companies: ['acme']},
    format: 'json',
    // The list at `.../jobs`; each job's detail at `.../jobs/{uuid}`.
    shaped: items(['uuid', 'name', 'url', 'department', 'workLocation']),
    detail: {
      path: '/jobs/',
      shaped: itemWith([
        'name',
        'url',
        'description',
        'workLocations',
        'department',
        'employmentType',
        'createdOn',
        'payRangeDetails',
        'companyName',
        'board',
      ]),
    },
  },
  {
    type: 'workable',
    entry: {accounts: ['acme']},
    format: 'json',
    shaped: fc.record({
      name: fieldValue,
      jobs: items([
        'title',
        'shortcode',
        'employment_type',
        'telecommuting',
        'department',
        'function',
        'url',
        'published_on',
        'city',
        'state',
        'country',
        'locations',
        'experience',
        'description',
      ]),
    }),
  },
  {
    type: 'smartrecruiters',
    entry: {companies: ['acme']},
    format: 'json',
    // Every request gets the same answer: the list's pages and each posting's detail alike.
    shaped: fc.record({
      offset: fc.oneof(fc.nat(), fieldValue),
      totalFound: fc.oneof(fc.nat(), fieldValue),
      content: items([
        'id',
        'name',
        'company',
        'location',
        'releasedDate',
        'postingUrl',
        'jobAd',
        'typeOfEmployment',
        'experienceLevel',
        'department',
        'function',
      ]),
    }),
  },
  {
    type: 'workday',
    entry: {sites: ['acme.wd1/Careers']},
    format: 'json',
    shaped: fc.record({
      total: fieldValue,
      jobPostings: fc.array(
        fc.oneof(
          itemWith(['title', 'locationsText', 'postedOn', 'bulletFields']).chain((item) =>
            fc
              .oneof(fieldValue, fc.constantFrom('/job/Berlin/Engineer_R1', '/job/x?y#z', '/job/../../jobs'))
              .map((externalPath) => ({...item, externalPath})),
          ),
          fc.jsonValue({maxDepth: 1}),
        ),
        {maxLength: 8},
      ),
    }),
    detail: {
      path: '/wday/cxs/acme/Careers/job/',
      shaped: fc.oneof(
        fc.record({
          jobPostingInfo: itemWith([
            'title',
            'jobDescription',
            'location',
            'additionalLocations',
            'startDate',
            'timeType',
            'remoteType',
            'jobReqId',
            'externalUrl',
          ]),
          hiringOrganization: fc.oneof(fieldValue, fc.record({name: fieldValue})),
        }),
        fc.jsonValue({maxDepth: 2}),
      ),
    },
  },
  {
    type: 'hackernews',
    entry: {},
    format: 'json',
    // The stories answer is fixed (so the comments get read); the comments are random.
    shaped: fc.record({
      hits: fc.array(
        fc.oneof(
          itemWith(['objectID', 'parent_id', 'comment_text', 'created_at', 'created_at_i']),
          fc.record({
            objectID: fc.oneof(fc.integer(), boardText),
            parent_id: fc.constant(HN_STORY),
            comment_text: fc.oneof(boardText, fc.jsonValue()),
            created_at: dateLike,
          }),
        ),
        {maxLength: 8},
      ),
      nbPages: fc.oneof(fc.integer(), fc.constant('x')),
    }),
  },
]

// --- random XML -------------------------------------------------------------------------------------------------------

const xmlText = fc.oneof(
  boardText,
  boardText.map((text) => `<![CDATA[${text}]]>`),
  fc.constantFrom('R&D', 'a < b', '<b>bold</b>', '&amp;amp;', ']]>', '<!-- c -->', '&#x1F600;'),
)

const rssItem = fc
  .record({title: xmlText, link: xmlText, pubDate: xmlText, region: xmlText, country: xmlText, guid: xmlText})
  .map(
    ({title, link, pubDate, region, country, guid}) =>
      `<item><title>${title}</title><link>${link}</link><pubDate>${pubDate}</pubDate>` +
      `<region>${region}</region><country>${country}</country><guid>${guid}</guid></item>`,
  )
const atomEntry = fc
  .record({title: xmlText, href: xmlText, updated: xmlText, rel: fc.constantFrom('alternate', 'self', '')})
  .map(
    ({title, href, updated, rel}) =>
      `<entry><title type="html">${title}</title><link rel="${rel}" href="${href}"/><updated>${updated}</updated></entry>`,
  )

const feedDocument = fc.oneof(
  fc
    .array(rssItem, {maxLength: 5})
    .map((all) => `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>${all.join('')}</channel></rss>`),
  fc
    .array(atomEntry, {maxLength: 5})
    .map((all) => `<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>${all.join('')}</feed>`),
  fc
    .array(rssItem, {maxLength: 5})
    .map((all) => `<rdf:RDF xmlns:rdf="x"><channel><title>T</title></channel>${all.join('')}</rdf:RDF>`),
)

const randomXml = fc.oneof(
  {arbitrary: feedDocument, weight: 4},
  // A document cut off anywhere, or with a random slice spliced out: truncated transfers and broken markup.
  {
    arbitrary: fc
      .tuple(feedDocument, fc.nat(), fc.nat())
      .map(([xml, a, b]) => xml.slice(0, a % (xml.length + 1)) + xml.slice(b % (xml.length + 1))),
    weight: 3,
  },
  {arbitrary: fc.string({maxLength: 200}), weight: 1},
  {
    arbitrary: fc.constantFrom(
      '',
      '<',
      '<?xml version="1.0"?>',
      '<rss/>',
      '<rss><channel/></rss>',
      '{"jobs": []}',
      '<html><body>x</body></html>',
    ),
    weight: 1,
  },
)

const XML_BOARDS: Board[] = [
  {type: 'weworkremotely', entry: {}, format: 'xml', shaped: randomXml},
  {type: 'rss', entry: {name: 'fuzz'}, format: 'xml', shaped: randomXml},
]

// --- the property -------------------------------------------------------------------------------------------------

/** The board at `http://board.invalid`, answering every request with `answer` (as the shared client returns it). */
function adapterAnswering(board: Board, answer: (url: string) => unknown) {
  const http = {
    getJson: async (url: string) => answer(url),
    getText: async (url: string) => answer(url),
  } as unknown as HttpClient
  const url = board.type === 'rss' ? 'http://board.invalid/feed.rss' : 'http://board.invalid'
  const [source] = createSources([{type: board.type, url, ...board.entry} as SourceConfig], {
    http,
    logger: silentLogger,
  })
  if (!source) throw new Error(`no source built for ${board.type}`)
  return source
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}Z)?$/
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what clean text must not hold
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

const JOB_KEYS = [
  'board_id',
  'company',
  'company_url',
  'description',
  'employment_type',
  'location',
  'posted_date',
  'regions',
  'remote',
  'salary',
  'seniority',
  'source',
  'tags',
  'timezones',
  'title',
  'url',
]
const EMPLOYMENT = [null, 'full_time', 'part_time', 'contract', 'internship', 'temporary']
// biome-ignore lint/suspicious/noControlCharactersInRegex: a description keeps its line breaks and nothing else
const DESCRIPTION_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/

/** The details of a job: clean text, lists of clean text, a salary of numbers or nothing. */
function expectDetailsShape(job: JobResponse): void {
  if (job.description !== null) {
    expect(job.description).not.toBe('')
    expect(job.description.length).toBeLessThanOrEqual(20_000)
    expect(DESCRIPTION_CONTROL.test(job.description), 'description holds control characters').toBe(false)
    expect(LONE_SURROGATE.test(job.description), 'description is not well-formed Unicode').toBe(false)
  }
  for (const list of [job.regions, job.timezones, job.tags]) {
    expect(Array.isArray(list)).toBe(true)
    for (const entry of list) {
      expect(typeof entry).toBe('string')
      expect(entry).not.toBe('')
      expect(CONTROL.test(entry), `${JSON.stringify(entry)} holds control characters`).toBe(false)
    }
  }
  if (job.salary !== null) {
    for (const amount of [job.salary.min, job.salary.max, job.salary.annual_min, job.salary.annual_max]) {
      if (amount !== null) expect(Number.isFinite(amount) && amount > 0, String(amount)).toBe(true)
    }
  }
  expect(EMPLOYMENT).toContain(job.employment_type)
  expect([null, true, false]).toContain(job.remote)
  for (const field of ['seniority', 'board_id', 'company_url'] as const) {
    if (job[field] !== null) expect(typeof job[field]).toBe('string')
  }
}

/**
 * JobResponse as docs/SOURCES.md ("What a job holds") fixes it: the six original fields (clean trimmed text, a non-empty title and url, a UTC
 * date or null) and the details.
 */
function expectJobShape(job: JobResponse): void {
  expect(Object.keys(job).sort()).toEqual(JOB_KEYS)
  expectDetailsShape(job)
  for (const field of ['title', 'company', 'location', 'source', 'url'] as const) {
    const value = job[field]
    expect(typeof value, field).toBe('string')
    expect(value, field).toBe(value.trim())
    expect(LONE_SURROGATE.test(value), `${field} ${JSON.stringify(value)} is not well-formed Unicode`).toBe(false)
  }
  for (const field of ['title', 'company', 'location'] as const) {
    expect(CONTROL.test(job[field]), `${field} ${JSON.stringify(job[field])} holds control characters`).toBe(false)
    expect(job[field], field).not.toMatch(/\s\s/)
  }
  expect(job.title).not.toBe('')
  expect(job.url).not.toBe('')
  if (job.posted_date !== null) expect(job.posted_date).toMatch(ISO_UTC)
}

async function expectJobsOrProjectError(work: Promise<JobResponse[]>): Promise<void> {
  let jobs: JobResponse[]
  try {
    jobs = await work
  } catch (error) {
    expect(isJobagentError(error), `escaped the adapter: ${String((error as Error)?.stack ?? error)}`).toBe(true)
    return
  }
  expect(Array.isArray(jobs)).toBe(true)
  for (const job of jobs) expectJobShape(job)
}

const signal = new AbortController().signal

describe('board adapters fed random responses', () => {
  describe.each([...JSON_BOARDS, ...XML_BOARDS].map((board) => [board.type, board] as const))('%s', (_type, board) => {
    it('returns JobResponse items or the project error for any JSON value', async () => {
      await fc.assert(
        fc.asyncProperty(fc.jsonValue(), async (value) => {
          // A feed is read as text: it gets the JSON's text, as a mirror answering with JSON would send it.
          const answer = board.format === 'xml' ? JSON.stringify(value) : value
          await expectJobsOrProjectError(adapterAnswering(board, () => answer).fetchJobs(EMPTY_CRITERIA, signal))
        }),
        {numRuns: NUM_RUNS},
      )
    })

    it(`returns JobResponse items or the project error for random ${board.format === 'xml' ? 'XML' : 'items in its shape'}`, async () => {
      await fc.assert(
        fc.asyncProperty(board.shaped, board.detail?.shaped ?? fc.constant(null), async (value, detail) => {
          const answer = (url: string) => {
            if (board.type === 'hackernews' && url.includes('tags=story')) return HN_STORIES
            return board.detail && url.includes(board.detail.path) ? detail : value
          }
          await expectJobsOrProjectError(adapterAnswering(board, answer).fetchJobs(EMPTY_CRITERIA, signal))
        }),
        {numRuns: NUM_RUNS * 2},
      )
    })
  })
})

describe('the feed parser and the Hacker News heading parser', () => {
  it('parses any string as a feed or refuses it with the project error', () => {
    fc.assert(
      fc.property(fc.oneof(randomXml, fc.string({unit: 'binary'})), (xml) => {
        try {
          const feed = parseFeed(xml)
          expect(Array.isArray(feed.items)).toBe(true)
          for (const item of feed.items)
            expect(typeof item.title === 'string' && typeof item.link === 'string').toBe(true)
        } catch (error) {
          expect(isJobagentError(error), String(error)).toBe(true)
        }
      }),
      {numRuns: NUM_RUNS * 4},
    )
  })

  it('refuses a well-formed feed cut off anywhere, instead of returning its first items', () => {
    fc.assert(
      fc.property(
        fc.array(rssItem, {minLength: 1, maxLength: 4}),
        fc.double({min: 0.05, max: 0.95, noNaN: true}),
        (all, at) => {
          const xml = `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>${all.join('')}</channel></rss>`
          fc.pre(parseFeedOrUndefined(xml) !== undefined)
          const cut = xml.slice(0, Math.floor(xml.length * at))
          expect(() => parseFeed(cut)).toThrow(/^malformed XML: |^unexpected response shape/)
        },
      ),
      {numRuns: NUM_RUNS},
    )
  })

  it('reads any comment text as a heading or as nothing, never throwing', () => {
    fc.assert(
      fc.property(fc.oneof(boardText, fc.jsonValue()), (text) => {
        const heading = parseHeading(text)
        if (heading) for (const part of Object.values(heading)) expect(typeof part).toBe('string')
      }),
      {numRuns: NUM_RUNS * 4},
    )
  })
})

function parseFeedOrUndefined(xml: string) {
  try {
    return parseFeed(xml)
  } catch {
    return undefined
  }
}
