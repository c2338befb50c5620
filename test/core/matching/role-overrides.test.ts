import {describe, expect, it} from 'vitest'
import {OccupationIndex} from '../../../src/core/matching/occupations.js'
import {TITLE_ABBREVIATIONS, TITLE_OVERRIDES} from '../../../src/core/matching/role-overrides.js'
import {knowledge} from '../../helpers/knowledge.js'

const index = knowledge.occupations
const names = (title: string) => index.occupationsOf(title).map((at) => index.occupation(at).name)

describe('the role overrides, each where the data reads postings wrong', () => {
  it('lists only titles and codes the data has', () => {
    for (const codes of Object.values(TITLE_OVERRIDES))
      for (const code of codes) expect(index.byCode(code), code).not.toBeUndefined()
    expect(() => new OccupationIndex({...knowledgeData(), occupations: []})).toThrow(/unknown code/)
  })

  it('reads a Security Engineer as information security work, not fire alarm installing', () => {
    expect(names('Security Engineer')).toContain('information security engineer')
    expect(names('Security Engineer')).not.toContain('security and fire alarm systems installer')
  })

  it('reads a Platform Engineer and an SRE as software work, not blockchain or validation engineering', () => {
    expect(names('Platform Engineer')).toContain('software developer')
    expect(names('Platform Engineer')).not.toContain('blockchain engineer')
    expect(names('Site Reliability Engineer')).not.toContain('validation engineer')
    expect(names('SRE')).toEqual(names('Site Reliability Engineer'))
  })

  it('reads a Nurse Coach as a registered nurse, not a sports coach or a teacher', () => {
    expect(names('Nurse Coach')).toEqual(['registered nurse'])
    expect(names('Senior Nurse Coach - Remote')).toEqual(['registered nurse'])
    expect(names('Nurse Coach')).not.toContain('coach and scout')
  })

  it('spells out ML, which no O*NET title abbreviates', () => {
    expect(TITLE_ABBREVIATIONS.ml).toEqual(['machine', 'learning'])
    expect(names('ML Engineer')).toEqual(names('Machine Learning Engineer'))
    expect(names('ML Engineer').length).toBeGreaterThan(0)
  })

  it('reads People, as postings name human resources work, as human resources', () => {
    expect(names('People Operations Coordinator')).toContain('human resources specialist')
    expect(names('People Partner')).toEqual(names('Human Resources Partner'))
  })

  it('makes developers, engineers and programmers, nurses and practitioners, technicians and installers one work', () => {
    expect(index.sameHead('programmer', 'developer')).toBe(true)
    expect(index.sameHead('nurse', 'practitioner')).toBe(true)
    expect(index.sameHead('installer', 'mechanic')).toBe(true)
  })
})

function knowledgeData() {
  return {source: 'test', occupations: [], titles: [], of: [], words: [], in: [], nouns: [], heads: {}}
}
