import {readFileSync} from 'node:fs'
import {resolve} from 'node:path'
import {describe, expect, it} from 'vitest'
import {type OccupationData, OccupationIndex} from '../../../src/core/matching/occupations.js'
import type {Profile} from '../../../src/core/matching/profile.js'
import {RoleMatcher} from '../../../src/core/matching/role-match.js'
import {scoreJobs} from '../../../src/core/matching/score.js'
import {knowledge} from '../../helpers/knowledge.js'
import {scoringJob, scoringProfile} from '../../helpers/matching.js'

const index = knowledge.occupations
const codes = (title: string) => index.occupationsOf(title).map((at) => index.occupation(at).code)
const roles = (...wanted: string[]) => new RoleMatcher(wanted, index)

const job = scoringJob
const profile = scoringProfile

describe('reading titles into occupations', () => {
  it('finds the exact title first, without level words, places in brackets, gender markers or remote', () => {
    expect(codes('Registered Nurses')).toEqual(['29-1141.00'])
    expect(codes('Senior Registered Nurse (m/w/d) - Remote')).toEqual(['29-1141.00'])
    expect(codes('Staff Nurse - ICU')).toContain('29-1141.00')
    expect(codes('Software Engineer (f/m/d) (Berlin)')).toEqual(['15-1252.00'])
    expect(codes('HVAC Installer')).toEqual(['49-9021.00'])
  })

  it('splits a title at a dash with a space on either side, not at one inside a word', () => {
    expect(codes('Inside Sales Representative- USA Based Only')).toEqual(codes('Inside Sales Representative'))
    expect(codes('Inside Sales Representative')).toContain('41-3091.00')
    expect(codes('Registered Nurse -ICU')).toEqual(['29-1141.00'])
    expect(codes('E-commerce Manager')).toEqual(['13-1199.06'])
  })

  it('keeps a bounded number of titles read, forgetting the oldest, and reads a forgotten one the same again', () => {
    const data = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../data/occupations.json'), 'utf8'))
    const small = new OccupationIndex(data as OccupationData, 2)
    const of = (title: string) => small.occupationsOf(title).map((at) => small.occupation(at).code)
    expect(of('Registered Nurse')).toEqual(['29-1141.00'])
    expect(of('HVAC Installer')).toEqual(['49-9021.00'])
    expect(of('Software Engineer')).toEqual(['15-1252.00'])
    expect(small.titlesKept).toBe(2)
    expect(of('Registered Nurse')).toEqual(['29-1141.00'])
    expect(small.titlesKept).toBe(2)
  })

  it('reads a title the data does not have by its distinctive words', () => {
    expect(codes('SOC Engineer (Incident Response)')).toEqual(['15-1299.05'])
    expect(codes('Flutter Engineer')).toEqual([])
  })

  it('reads a title by its words only when they share at least half its weight: a lone shared head noun is not enough', () => {
    // "specialist" alone is too common to carry "Ecommerce Specialist" to the military "operations specialists".
    expect(codes('Ecommerce Specialist')).toEqual([])
    expect(codes('Senior Backend Golang Engineer')).toEqual(['15-1254.00'])
  })

  it('finds the head noun before words that follow it, and a plural as its singular', () => {
    expect(roles('data engineer').match('AI Engineer Data APIs').value).toBe(1)
    expect(roles('accounts payable specialist').match('Assistant Account Payable').value).toBe(1)
  })

  it('gives another title of a broad occupation less than the specialty wanted', () => {
    const matcher = roles('platform engineer')
    expect(matcher.match('Software Engineer')).toMatchObject({
      value: 0.7,
      reason: '~ role: software developer, close to platform engineer',
    })
    expect(matcher.match('Senior Platform Engineer').value).toBe(1)
  })

  it("gives a title of the wanted occupation by another kind of worker less than the role's own work", () => {
    // O*NET files "Digital Assets Operations Analyst" under accountants and auditors; an analyst is not an accountant.
    expect(roles('accountant').match('Junior Digital Assets Operations Analyst')).toMatchObject({
      value: 0.7,
      reason: '~ role: accountant and auditor, close to accountant',
    })
    expect(roles('accountant').match('Senior Tax Accountant').value).toBe(1)
    // A field's word shared is not the specialty: a data analyst is not a data engineer.
    expect(roles('data engineer').match('Data Analyst').value).toBe(0.7)
    // The wanted specialty named, by another head noun, is the same work.
    expect(roles('accounts payable specialist').match('Assistant Account Payable').value).toBe(1)
  })

  it('relates occupations across major groups only in their closest tier', () => {
    const near = (a: string, b: string) => index.nearness(index.byCode(a)!, index.byCode(b)!)
    // Accountants and auditors (13-) and bookkeeping clerks (43-): Primary-Short.
    expect(near('13-2011.00', '43-3031.00')).toEqual({value: 0.5, how: 'related'})
    expect(roles('bookkeeper').match('Staff Accountant')).toMatchObject({
      value: 0.2,
      reason: '~ role: accountant and auditor, related to bookkeeper',
    })
    // Graphic designers (27-) and software developers (15-): Primary-Long, another kind of work.
    expect(near('27-1024.00', '15-1252.00')).toEqual({value: 0, how: 'none'})
    // Inside a major group every tier counts: accountants and financial examiners, Primary-Short.
    expect(near('13-2011.00', '13-2061.00')).toEqual({value: 0.5, how: 'related'})
  })

  it('reads head nouns of the same work as equivalent, from the data and the overrides', () => {
    expect(index.sameHead('attorney', 'lawyer')).toBe(true)
    expect(index.sameHead('developer', 'engineer')).toBe(true)
    expect(index.sameHead('technician', 'installer')).toBe(true)
    expect(index.sameHead('analyst', 'engineer')).toBe(false)
  })
})

describe('the role from occupations (issue repros)', () => {
  it('matches SOC Engineer (Incident Response) for a security engineer or SOC analyst', () => {
    const match = roles('security engineer', 'soc analyst').match('SOC Engineer (Incident Response)')
    expect(match.value).toBe(1)
    expect(match.reason).toMatch(/^\+ role: /)
  })

  it('matches Flutter Engineer for a flutter developer, and ranks it above a generic Software Engineer', () => {
    const matcher = roles('flutter developer', 'mobile developer')
    expect(matcher.match('Flutter Engineer')).toMatchObject({value: 1, reason: '+ role: flutter developer'})
    const person = profile({roles: ['flutter developer', 'mobile developer'], skills: {flutter: 3, dart: 2}})
    const jobs = [
      job({title: 'Software Engineer', description: 'We build web apps.'}),
      job({title: 'Flutter Engineer', description: 'Requirements:\n- Dart'}),
    ]
    const [generic, flutter] = scoreJobs(jobs, person, {knowledge})
    expect(flutter!.rank).toBeGreaterThan(generic!.rank)
  })

  it('matches Registered Nurses and Staff Nurse - ICU for a registered nurse', () => {
    const matcher = roles('registered nurse')
    expect(matcher.match('Registered Nurses')).toMatchObject({value: 1, reason: '+ role: registered nurse'})
    expect(matcher.match('Staff Nurse - ICU').value).toBe(1)
  })

  it('matches HVAC Installer for an hvac technician, and a pediatric nurse by its distinctive word', () => {
    expect(roles('hvac technician').match('HVAC Installer').value).toBe(1)
    expect(roles('pediatric nurse').match('Pediatric ICU Nurse').value).toBe(1)
  })

  it('gives another discipline engineer no full credit for the shared word engineer', () => {
    const matcher = roles('data engineer')
    expect(matcher.match('Sales Engineer').value).toBeLessThan(0.5)
    expect(matcher.match('Civil Engineer').value).toBeLessThan(0.5)
    expect(roles('flutter developer').match('Backend Engineer').value).toBeLessThan(1)
  })
})

describe('the level from the title and the job zone', () => {
  const gates = (title: string, seniority: Profile['seniority']) =>
    scoreJobs([job({title})], profile({roles: ['product manager', 'software engineer', 'cashier'], seniority}), {
      knowledge,
      explain: true,
    })[0]!.parts.find((part) => part.part === 'gates')!.detail

  it('gates an Associate or Intern title for a senior person', () => {
    expect(gates('Associate Product Manager', 'senior')).toEqual(['junior, wanted senior: x0.5'])
    expect(gates('Software Engineering Intern', 'senior')).toEqual(['junior, wanted senior: x0.5'])
  })

  it('gates a Head of or Director title for a junior person', () => {
    expect(gates('Head of Product', 'junior')).toEqual(['lead, wanted junior: x0.5'])
    expect(gates('Director, Software Engineering', 'junior')).toEqual(['lead, wanted junior: x0.5'])
    expect(gates('Associate Director of Product', 'junior')).toEqual(['lead, wanted junior: x0.5'])
  })

  it('reads staff as a level in Staff Engineer, not in Staff Nurse or Staff Accountant, whose titles it is part of', () => {
    expect(gates('Staff Software Engineer', 'mid')).toEqual(['staff, wanted mid: x0.5'])
    expect(gates('Staff Nurse - ICU', 'mid')).toEqual(['none: x1'])
    expect(gates('Staff Accountant', 'mid')).toEqual(['none: x1'])
  })

  it('reads the job zone where the title says no level, only where it is decisive', () => {
    expect(gates('Cashier', 'senior')[0]).toMatch(/^cashier, job zone [12] of 5, wanted senior: x0.5$/)
    expect(gates('Cashier', 'mid')).toEqual(['none: x1'])
    expect(gates('Software Engineer', 'junior')).toEqual(['none: x1'])
  })
})
