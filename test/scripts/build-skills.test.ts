import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
// @ts-expect-error: a plain ESM script without types
import {buildSkills} from '../../scripts/build-skills.js'

const ROOT = join(import.meta.dirname, '..', '..')

describe('data/skills.json', () => {
  const built: string = buildSkills()

  it('is what scripts/build-skills.js makes of the vendored O*NET tables, byte for byte', () => {
    expect(built).toBe(readFileSync(join(ROOT, 'data', 'skills.json'), 'utf8'))
  })

  it("holds the tools' names as postings write them, without vendor, acronym or 'software'", () => {
    const {groups, ambiguous} = JSON.parse(built) as {groups: string[][]; ambiguous: string[]}
    const holds = (...spellings: string[]) =>
      groups.some((group) => spellings.every((spelling) => group.includes(spelling)))
    expect(holds('microsoft excel', 'excel')).toBe(true)
    expect(holds('amazon web services', 'aws')).toBe(true)
    expect(holds('oracle peoplesoft', 'peoplesoft')).toBe(true)
    expect(holds('autodesk revit', 'revit')).toBe(true)
    expect(holds('adobe premiere pro', 'premiere pro')).toBe(true)
    expect(holds('intuit quickbooks', 'quickbooks')).toBe(true)
    expect(holds('the mathworks matlab', 'matlab')).toBe(true)
    expect(holds('structured query language', 'sql')).toBe(true)
    // A short name that is a word of the occupations' titles names work, not the tool.
    expect(holds('microsoft project', 'project')).toBe(false)
    expect(holds('microsoft office', 'office')).toBe(false)
    // Not a product name: the rest of a phrase after words other tools start with.
    expect(holds('web browser', 'browser')).toBe(false)
    // A capitalised short name may be a plain word: it counts only where it stands as the tool.
    expect(ambiguous).toContain('outlook')
    expect(ambiguous).toContain('excel')
    expect(ambiguous).not.toContain('quickbooks')
    expect(built.length).toBeLessThan(20_000)
  })
})
