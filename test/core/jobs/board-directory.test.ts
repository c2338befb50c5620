import {describe, expect, it} from 'vitest'
import {DirectoryFormatError, parseBoardDirectory} from '../../../src/core/jobs/board-directory.js'

/** A directory as scripts/build-directory.js writes one, a section per ATS with its count. */
function directoryText(sections: Record<string, string[]>): string {
  const lines = ['jobagent-directory 1']
  for (const [type, boards] of Object.entries(sections)) lines.push(`#${type} ${boards.length}`, boards.join('\n'))
  return `${lines.filter((line) => line !== '').join('\n')}\n`
}

const DIRECTORY = parseBoardDirectory(
  directoryText({
    ashby: ['1st formations', 'notion\tNotion'],
    greenhouse: ['acme-corp\tAcme Corp, Inc.', 'airbnb\tAirbnb', 'globexhealth\tGlobex Health'],
    lever: ['Initech', 'globex\tGlobex GmbH\teu', 'hooli\t\teu'],
    personio: ['zurich-labs\tZürich Labs AG', 'acme'],
    pinpoint: [],
    teamtailor: ['bryter\tBryter', 'career.avanza.se\tAvanza', 'crunchbase.na.teamtailor.com'],
    workday: ['nvidia.wd5/NVIDIAExternalCareerSite\tNVIDIA', 'acme.wd1/External'],
  }),
)

const names = (boards: readonly {type: string; slug: string}[]) => boards.map((board) => `${board.type}:${board.slug}`)

describe('the directory of boards', () => {
  it('holds each ATS’s boards, counted, and gives them one after another, in slug order', () => {
    expect(DIRECTORY.size).toBe(15)
    expect(DIRECTORY.counts()).toEqual(
      expect.arrayContaining([
        {type: 'greenhouse', boards: 3},
        {type: 'pinpoint', boards: 0},
        {type: 'recruitee', boards: 0},
      ]),
    )
    expect(DIRECTORY.counts()).toHaveLength(13)
    expect([...DIRECTORY.boardsOf('lever')]).toEqual([
      {type: 'lever', slug: 'Initech', company: null},
      {type: 'lever', slug: 'globex', company: 'Globex GmbH', region: 'eu'},
      {type: 'lever', slug: 'hooli', company: null, region: 'eu'},
    ])
    expect([...DIRECTORY.boardsOf('pinpoint')]).toEqual([])
    expect([...DIRECTORY.boardsOf('recruitee')]).toEqual([])
  })

  it('gives a large section’s boards all, page after page', () => {
    const slugs = Array.from({length: 1234}, (_, index) => `board${String(index).padStart(4, '0')}`)
    const directory = parseBoardDirectory(directoryText({greenhouse: slugs, lever: ['last']}))
    expect([...directory.boardsOf('greenhouse')].map((board) => board.slug)).toEqual(slugs)
    expect(names([...directory.boardsOf('lever')])).toEqual(['lever:last'])
  })

  it('finds a board by its ATS and slug, in any case, in its region', () => {
    expect(DIRECTORY.board({type: 'greenhouse', slug: 'AIRBNB'})).toEqual({
      type: 'greenhouse',
      slug: 'airbnb',
      company: 'Airbnb',
    })
    expect(DIRECTORY.board({type: 'lever', slug: 'initech'})?.slug).toBe('Initech')
    expect(DIRECTORY.board({type: 'lever', slug: 'globex', region: 'eu'})?.company).toBe('Globex GmbH')
    expect(DIRECTORY.board({type: 'lever', slug: 'globex'})).toBeUndefined()
    expect(DIRECTORY.board({type: 'workday', slug: 'NVIDIA.wd5/nvidiaexternalcareersite'})?.company).toBe('NVIDIA')
    expect(DIRECTORY.board({type: 'teamtailor', slug: 'career.avanza.se'})?.company).toBe('Avanza')
    expect(DIRECTORY.board({type: 'pinpoint', slug: 'acme'})).toBeUndefined()
  })

  it.each([
    ['Airbnb', ['greenhouse:airbnb']],
    ['AIR BNB', ['greenhouse:airbnb']],
    // Company names and slugs read alike: the slug `acme` and the name `Acme Corp, Inc.` are the same company.
    ['Acme Corp', ['greenhouse:acme-corp', 'personio:acme', 'workday:acme.wd1/External']],
    ['acme', ['greenhouse:acme-corp', 'personio:acme', 'workday:acme.wd1/External']],
    ['Zurich Labs', ['personio:zurich-labs']],
    ['Globex', ['lever:globex']],
    ['1st Formations Ltd', ['ashby:1st formations']],
    // A Workday site by its tenant, a Teamtailor site by the company its host names.
    ['nvidia', ['workday:nvidia.wd5/NVIDIAExternalCareerSite']],
    ['Avanza AB', ['teamtailor:career.avanza.se']],
    ['crunchbase', ['teamtailor:crunchbase.na.teamtailor.com']],
    ['hooli', ['lever:hooli']],
    ['Nobody Here', []],
    ['!!!', []],
  ])('names %j: %j', (name, found) => {
    expect(names(DIRECTORY.named(name))).toEqual(found)
  })

  it('searches company names and slugs for a text, exact names first, within the limit', () => {
    expect(DIRECTORY.search({text: 'globex'}, 50)).toEqual({
      matched: 2,
      boards: [
        {type: 'lever', slug: 'globex', company: 'Globex GmbH', region: 'eu'},
        {type: 'greenhouse', slug: 'globexhealth', company: 'Globex Health'},
      ],
    })
    expect(names(DIRECTORY.search({text: 'Globex', ats: 'greenhouse'}, 50).boards)).toEqual(['greenhouse:globexhealth'])
    expect(DIRECTORY.search({text: 'a'}, 2)).toMatchObject({
      matched: 10,
      boards: [{slug: '1st formations'}, {slug: 'acme-corp'}],
    })
    expect(DIRECTORY.search({text: '!!!'}, 50)).toEqual({matched: 0, boards: []})
    expect(DIRECTORY.search({ats: 'lever'}, 2)).toMatchObject({
      matched: 3,
      boards: [{slug: 'Initech'}, {slug: 'globex'}],
    })
    expect(DIRECTORY.search({}, 1)).toMatchObject({matched: 15, boards: [{slug: '1st formations'}]})
  })
})

describe('the directory’s text', () => {
  it.each([
    ['no header', 'jobagent-directory 2\n#lever 0\n', 1, 'expected "jobagent-directory 1"'],
    ['a board before any ATS', 'jobagent-directory 1\nacme\n', 2, 'a board before the first'],
    ['an ATS jobagent does not read', 'jobagent-directory 1\n#taleo 0\n', 2, 'expected "#<ats> <count>"'],
    ['an ATS twice', 'jobagent-directory 1\n#lever 0\n#lever 0\n', 3, 'of an ATS not seen before'],
    ['a count that is not a number', 'jobagent-directory 1\n#lever many\n', 2, 'expected "#<ats> <count>"'],
    ['fewer boards than announced', 'jobagent-directory 1\n#lever 2\nacme\n#ashby 0\n', 4, 'announces 2 boards, 1'],
    ['more boards than announced', 'jobagent-directory 1\n#lever 1\nacme\nglobex\n', 5, 'announces 1 boards, 2'],
    ['an empty line', 'jobagent-directory 1\n#lever 2\nacme\n\n', 4, 'an empty line'],
    ['an empty slug', 'jobagent-directory 1\n#lever 1\n\tAcme\n', 3, 'expected "<slug>"'],
    ['a region off Lever', 'jobagent-directory 1\n#ashby 1\nacme\tAcme\teu\n', 3, 'expected "<slug>"'],
    ['a region other than eu', 'jobagent-directory 1\n#lever 1\nacme\tAcme\tus\n', 3, 'expected "<slug>"'],
    ['a fourth field', 'jobagent-directory 1\n#lever 1\nacme\tAcme\teu\tmore\n', 3, 'expected "<slug>"'],
  ])('refuses %s, naming the line', (_what, text, line, message) => {
    let caught: unknown
    try {
      parseBoardDirectory(text)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(DirectoryFormatError)
    expect((caught as DirectoryFormatError).line).toBe(line)
    expect((caught as Error).message.startsWith(`line ${line}: `)).toBe(true)
    expect((caught as Error).message).toContain(message)
  })

  it('reads a long run of lines without a tab in one pass', () => {
    const slugs = Array.from({length: 200_000}, (_, index) => `b${index}`)
    const directory = parseBoardDirectory(directoryText({greenhouse: [...slugs, 'last\tLast']}))
    expect(directory.board({type: 'greenhouse', slug: 'last'})?.company).toBe('Last')
    expect(names(directory.named('b199999'))).toEqual(['greenhouse:b199999'])
  })
})
