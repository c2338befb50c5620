import {describe, expect, it} from 'vitest'
import type {JobResponse} from '../../../src/core/jobs/job.js'
import type {Profile} from '../../../src/core/matching/profile.js'
import {scoreJobs} from '../../../src/core/matching/score.js'
import {COMMON_WORD_SKILLS, SKILL_SYNONYMS, standsAsSkill} from '../../../src/core/matching/skills.js'
import {noDetails} from '../../helpers/job-details.js'
import {knowledge} from '../../helpers/knowledge.js'

let serial = 0
const job = (fields: Partial<JobResponse>): JobResponse => ({
  title: 'Engineer',
  company: 'Acme',
  location: '',
  url: `https://example.org/skills/${serial++}`,
  source: 'remotive',
  posted_date: null,
  ...noDetails(),
  ...fields,
})
const skilled = (skills: Record<string, number>): Profile => ({
  roles: [],
  skills,
  avoid: [],
  seniority: 'any',
  home: null,
  locations: [],
})
/** The skills reasons of one job scored for a profile with these skills. */
const reasonsFor = (skills: Record<string, number>, fields: Partial<JobResponse>) =>
  scoreJobs([job(fields)], skilled(skills), {knowledge})[0]!.reasons.filter((reason) => reason.startsWith('+ '))
const spellingsOf = (term: string) => knowledge.skills.of(term).map((each) => each.spelling)

describe('the spellings of a skill', () => {
  it('match each other both ways, for every group of the table', () => {
    for (const group of SKILL_SYNONYMS) {
      for (const term of group) expect(spellingsOf(term), term).toEqual(expect.arrayContaining([...group]))
    }
  })

  it('finds the Golang engineer for a Go developer, by the title and by the tag', () => {
    expect(reasonsFor({go: 3}, {title: 'Senior Backend Golang Engineer'})).toEqual(['+ go (title)'])
    expect(reasonsFor({go: 3}, {title: 'Senior Backend Engineer', tags: ['golang', 'postgres']})).toEqual([
      '+ go (tags)',
    ])
    expect(reasonsFor({golang: 3}, {title: 'Backend Engineer', tags: ['go']})).toEqual(['+ golang (tags)'])
  })

  it('reads the common abbreviations: k8s, js, ts, postgres, ml, ai, nodejs, react.js, gcp, aws, ci/cd', () => {
    const pairs: [string, string][] = [
      ['kubernetes', 'k8s'],
      ['javascript', 'js'],
      ['typescript', 'ts'],
      ['postgresql', 'postgres'],
      ['machine learning', 'ml'],
      ['artificial intelligence', 'ai'],
      ['node.js', 'nodejs'],
      ['react', 'react.js'],
      ['google cloud', 'gcp'],
      ['amazon web services', 'aws'],
      ['ci/cd', 'continuous integration'],
    ]
    for (const [skill, tag] of pairs)
      expect(reasonsFor({[skill]: 1}, {tags: [tag]}), skill).toEqual([`+ ${skill} (tags)`])
  })

  it("takes O*NET's tool names: a posting's Excel, QuickBooks or AWS for a profile that writes the vendor", () => {
    const requirements = (line: string) => ({description: `Requirements:\n- ${line}\n`})
    expect(reasonsFor({'intuit quickbooks': 2}, requirements('QuickBooks Online'))).toEqual([
      '+ intuit quickbooks (requirements)',
    ])
    expect(reasonsFor({'microsoft excel': 2}, requirements('Advanced Excel skills'))).toEqual([
      '+ microsoft excel (requirements)',
    ])
    expect(reasonsFor({'oracle peoplesoft': 2}, requirements('PeopleSoft HCM'))).toEqual([
      '+ oracle peoplesoft (requirements)',
    ])
    expect(reasonsFor({excel: 2}, requirements('Microsoft Excel'))).toEqual(['+ excel (requirements)'])
  })
})

describe('a skill that is also a plain word', () => {
  // Each common word, with the sentence that shows it is one.
  const plain: Record<string, string> = {
    go: 'You will go the extra mile for customers and own our go-to-market.',
    rust: 'Keep the fleet free of rust and dents.',
    swift: 'We expect swift replies to every customer.',
    excel: 'You excel at talking to people.',
    r: 'Our R&D team is in Berlin.',
    c: 'We raised a Series C last year and are a C-level favourite.',
    ci: 'Help us improve our ci process.',
    cd: 'Burn a cd of the release.',
    dart: 'Throw a dart at the board.',
    spring: 'We meet every spring in Lisbon.',
    chef: 'Our chef cooks lunch for the team.',
    puppet: 'Nobody here is a puppet of the board.',
    word: 'Spread the word about our product.',
  }
  it('holds exactly the words tested here', () => {
    expect([...COMMON_WORD_SKILLS].sort()).toEqual(Object.keys(plain).sort())
  })

  for (const [skill, sentence] of Object.entries(plain)) {
    it(`does not count "${skill}" in "${sentence}"`, () => {
      expect(reasonsFor({[skill]: 2}, {description: sentence})).toEqual([])
    })
  }

  it('counts it where it stands as the technology: tags, a list of technologies, a name in a sentence', () => {
    expect(reasonsFor({go: 2}, {tags: ['go']})).toEqual(['+ go (tags)'])
    expect(reasonsFor({go: 2}, {description: 'Requirements:\n- Go, Python or Rust\n'})).toEqual(['+ go (requirements)'])
    expect(reasonsFor({rust: 2}, {description: 'We write our services in Rust and TypeScript.'})).toEqual([
      '+ rust (description)',
    ])
    expect(reasonsFor({r: 2}, {description: 'Requirements:\n- SQL, R and Python\n'})).toEqual(['+ r (requirements)'])
    expect(reasonsFor({swift: 2}, {title: 'Senior iOS Engineer (Swift)'})).toEqual(['+ swift (title)'])
    expect(reasonsFor({go: 2}, {title: 'Go-To-Market Lead'})).toEqual([])
  })

  it('reads the capital only in the middle of a sentence', () => {
    const at = (text: string, word: string) => standsAsSkill(text, text.indexOf(word), word.length)
    expect(at('Experience with Go and gRPC', 'Go')).toBe(true)
    expect(at('Go beyond what is asked.', 'Go')).toBe(false)
    expect(at('Ship fast. Go home early.', 'Go')).toBe(false)
    expect(at('Intro\n- Excel at the craft', 'Excel')).toBe(false)
    expect(at('languages: go, rust, python', 'go')).toBe(true)
    expect(at('ready to go and ship', 'go')).toBe(false)
  })
})
