import {describe, expect, it} from 'vitest'
import {
  atsTypes,
  boardPage,
  boardsInPage,
  parseCareersUrl,
  parseSourceName,
  probeableAts,
  type RecognisedBoard,
  recogniseBoardUrl,
} from '../../../src/core/jobs/board-urls.js'
import {nameOfHost, slugCandidates} from '../../../src/core/jobs/company-slugs.js'

function recognise(text: string) {
  const url = parseCareersUrl(text)
  return url ? recogniseBoardUrl(url) : undefined
}

describe('careers URLs of a known ATS', () => {
  it.each([
    ['https://boards.greenhouse.io/gitlab', {type: 'greenhouse', slug: 'gitlab'}],
    ['https://boards.greenhouse.io/gitlab/jobs/4012345', {type: 'greenhouse', slug: 'gitlab'}],
    ['https://job-boards.greenhouse.io/Acme', {type: 'greenhouse', slug: 'acme'}],
    ['https://boards.greenhouse.io/embed/job_board?for=acme&b=https://acme.com', {type: 'greenhouse', slug: 'acme'}],
    ['jobs.lever.co/acme', {type: 'lever', slug: 'acme'}],
    ['https://jobs.lever.co/acme/1f2e3d4c-aaaa-bbbb-cccc-1234567890ab/apply', {type: 'lever', slug: 'acme'}],
    ['https://jobs.eu.lever.co/acme', {type: 'lever', slug: 'acme', region: 'eu'}],
    ['https://jobs.ashbyhq.com/acme', {type: 'ashby', slug: 'acme'}],
    ['https://apply.workable.com/acme/', {type: 'workable', slug: 'acme'}],
    ['https://apply.workable.com/acme/j/ABC123/', {type: 'workable', slug: 'acme'}],
    ['https://acme.recruitee.com/o/backend-engineer', {type: 'recruitee', slug: 'acme'}],
    ['https://acme.jobs.personio.de', {type: 'personio', slug: 'acme'}],
    ['https://acme.jobs.personio.com/job/123', {type: 'personio', slug: 'acme'}],
    ['https://acme.breezy.hr/', {type: 'breezy', slug: 'acme'}],
    ['https://acme.teamtailor.com/jobs', {type: 'teamtailor', slug: 'acme'}],
    ['https://acme.pinpointhq.com/', {type: 'pinpoint', slug: 'acme'}],
    ['https://jobs.smartrecruiters.com/AcmeCorp', {type: 'smartrecruiters', slug: 'acmecorp'}],
    ['https://careers.smartrecruiters.com/acme/engineering', {type: 'smartrecruiters', slug: 'acme'}],
    ['https://acme.bamboohr.com/careers', {type: 'bamboohr', slug: 'acme'}],
    ['https://acme.bamboohr.com/jobs/view.php?id=12', {type: 'bamboohr', slug: 'acme'}],
    ['https://ats.rippling.com/acme/jobs', {type: 'rippling', slug: 'acme'}],
    ['https://ats.rippling.com/acme/jobs/0a1b2c', {type: 'rippling', slug: 'acme'}],
    ['https://acme.wd5.myworkdayjobs.com/en-US/Careers', {type: 'workday', slug: 'acme.wd5/Careers'}],
    [
      'https://acme.wd1.myworkdayjobs.com/External/job/Berlin/Engineer_R1',
      {type: 'workday', slug: 'acme.wd1/External'},
    ],
    ['acme.wd103.myworkdayjobs.com/de/Site', {type: 'workday', slug: 'acme.wd103/Site'}],
    // Teamtailor's North American region has no slug of its own: the site is named by its host.
    ['https://acme.na.teamtailor.com/jobs/123', {type: 'teamtailor', slug: 'acme.na.teamtailor.com'}],
  ])('%s names %o', (text, board) => {
    expect(recognise(text)).toEqual(board)
  })

  it.each([
    'https://acme.com/careers',
    'https://greenhouse.io/gitlab',
    'https://boards.greenhouse.io/',
    'https://boards.greenhouse.io/embed/job_board',
    'https://evil.example/boards.greenhouse.io/acme',
    'https://boards.greenhouse.io.evil.example/acme',
    'https://jobs.lever.co',
    'https://apply.workable.com/api/v1/accounts',
    'https://acme.bamboohr.com/home',
    'https://ats.rippling.com/acme',
    'https://acme.wd5.myworkdayjobs.com/',
    'https://acme.myworkdayjobs.com/Careers',
    'https://a.b.recruitee.com/',
    'https://a.b.teamtailor.com/',
    'https://acme.eu.teamtailor.com/',
    'ftp://jobs.lever.co/acme',
    'https://jobs.lever.co/%E0%A4%A',
    'https://jobs.lever.co/<script>',
  ])('%s names no board', (text) => {
    expect(recognise(text)).toBeUndefined()
  })

  it.each(['', 'Acme Corp', 'gitlab', 'Inc.', 'http://', 'https://[::1', '127.0.0.1/x', 'not a url at all.com'])(
    'reads %j as no URL',
    (text) => {
      expect(parseCareersUrl(text)).toBeUndefined()
    },
  )

  it('reads a URL with its scheme whatever its host, and one without only with a top-level domain', () => {
    expect(parseCareersUrl('http://127.0.0.1:8080/careers')?.host).toBe('127.0.0.1:8080')
    expect(parseCareersUrl('careers.acme.com/jobs')?.href).toBe('https://careers.acme.com/jobs')
  })

  it('reads a long hostile string quickly and finds nothing in it', () => {
    const hostile = [
      `https://${'a.'.repeat(50_000)}myworkdayjobs.com/${'en-US/'.repeat(10_000)}`,
      `https://jobs.lever.co/${'a'.repeat(100_000)}!`,
      `${'-'.repeat(100_000)}.breezy.hr`,
      `https://boards.greenhouse.io/embed/job_board?for=${'a-'.repeat(50_000)}!`,
    ]
    const started = performance.now()
    for (const text of hostile) expect(recognise(text)).toBeUndefined()
    expect(performance.now() - started).toBeLessThan(200)
  })
})

describe("a board's public page", () => {
  const acme = (type: RecognisedBoard['type']): RecognisedBoard =>
    type === 'workday' ? {type, slug: 'acme.wd5/Careers'} : {type, slug: 'acme'}

  it.each(atsTypes())('%s: its page names the board again', (type) => {
    expect(recognise(boardPage(acme(type)))).toEqual(acme(type))
  })

  it.each([
    [{type: 'lever', slug: 'acme', region: 'eu'}, 'https://jobs.eu.lever.co/acme'],
    [{type: 'teamtailor', slug: 'careers.acme.com'}, 'https://careers.acme.com/jobs'],
    [{type: 'teamtailor', slug: 'acme.na.teamtailor.com'}, 'https://acme.na.teamtailor.com/jobs'],
    [{type: 'ashby', slug: '1st formations'}, 'https://jobs.ashbyhq.com/1st%20formations'],
    [
      {type: 'workday', slug: 'nvidia.wd5/NVIDIAExternalCareerSite'},
      'https://nvidia.wd5.myworkdayjobs.com/NVIDIAExternalCareerSite',
    ],
    [{type: 'workday', slug: 'nvidia'}, ''],
  ] as const)('%o is at %j', (board, page) => {
    expect(boardPage(board)).toBe(page)
  })
})

describe("a source's name", () => {
  it.each([
    ['greenhouse:acme', {type: 'greenhouse', slug: 'acme'}],
    ['Lever:Acme', {type: 'lever', slug: 'Acme'}],
    ['workday:acme.wd5/Careers', {type: 'workday', slug: 'acme.wd5/Careers'}],
    ['ashby: 1st formations ', {type: 'ashby', slug: '1st formations'}],
  ])('%j names %o', (text, board) => {
    expect(parseSourceName(text)).toEqual(board)
  })

  it.each(['acme', 'remoteok:acme', 'greenhouse:', ':acme', 'Acme: the company', 'greenhouse:a\u0007b'])(
    '%j names no board',
    (text) => {
      expect(parseSourceName(text)).toBeUndefined()
    },
  )
})

describe('the boards a careers page links to', () => {
  it('finds embedded and linked boards once each, in the order of the page', () => {
    const html = `<html><body>
      <script src="https://boards.greenhouse.io/embed/job_board/js?for=acme"></script>
      <div id="grnhse_app"></div>
      <iframe src='//boards.greenhouse.io/embed/job_board?for=acme&amp;b=https%3A%2F%2Facme.com'></iframe>
      <a href="https://jobs.eu.lever.co/acme/123">Engineer</a>
      <a href="https://acme.com/about">About</a> <a href=https://apply.workable.com/acme-labs/>More</a>
    </body></html>`
    expect(boardsInPage(html)).toEqual([
      {type: 'greenhouse', slug: 'acme'},
      {type: 'lever', slug: 'acme', region: 'eu'},
      {type: 'workable', slug: 'acme-labs'},
    ])
    expect(boardsInPage('<p>No links here, only text // and slashes</p>')).toEqual([])
  })

  it('reads a large hostile page quickly', () => {
    const hostile = ['/'.repeat(1_000_000), 'https://'.repeat(200_000), `//${'a'.repeat(1_000_000)}`].join(' ')
    const started = performance.now()
    expect(boardsInPage(hostile)).toEqual([])
    expect(performance.now() - started).toBeLessThan(500)
  })
})

describe('slug candidates of a company name', () => {
  it.each([
    ['Acme Corp, Inc.', ['acmecorp', 'acme-corp', 'acme']],
    ['GitLab', ['gitlab']],
    ['Zürich Labs GmbH', ['zurichlabs', 'zurich-labs', 'zurich']],
    ['Ben & Jerry', ['benandjerry', 'ben-and-jerry']],
    ['Acme Technologies Group Ltd', ['acmetechnologiesgroup', 'acme-technologies-group', 'acme']],
    ['Big Data Software Co', ['bigdatasoftwareco', 'big-data-software-co', 'bigdata', 'big-data']],
    ['Inc.', ['inc']],
    ['!!!', []],
  ])('%j gives %j', (name, slugs) => {
    expect(slugCandidates(name)).toEqual(slugs)
  })

  it('gives at most four, however long the name', () => {
    expect(slugCandidates('Very Long Name Of A Company Corp Inc '.repeat(1000)).length).toBeLessThanOrEqual(4)
  })
})

describe('the name a company host gives', () => {
  it.each([
    ['https://careers.acme.com/jobs', 'acme'],
    ['https://www.acme.io', 'acme'],
    ['https://jobs.acme.co.uk/', 'acme'],
    ['https://acme.de', 'acme'],
    ['http://127.0.0.1:8080/careers', ''],
    ['http://localhost/careers', ''],
  ])('%s gives %s', (text, name) => {
    expect(nameOfHost(new URL(text))).toBe(name)
  })
})

describe('the ATSs a name is tried on', () => {
  it('are those a slug alone names and this version searches, never Workday', () => {
    const types = probeableAts().map((ats) => ats.type)
    expect(types).toEqual(
      expect.arrayContaining([
        'greenhouse',
        'lever',
        'ashby',
        'workable',
        'recruitee',
        'personio',
        'breezy',
        'teamtailor',
        'pinpoint',
      ]),
    )
    expect(types).not.toContain('workday')
  })
})
