import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {buildOccupations, OCCUPATIONS_FILE} from '../../scripts/build-occupations.js'
import {roleWords} from '../../src/core/matching/title-words.js'

describe('data/occupations.json', () => {
  const built = buildOccupations()

  it('is what scripts/build-occupations.ts makes of the vendored O*NET tables, byte for byte', () => {
    expect(readFileSync(OCCUPATIONS_FILE, 'utf8')).toBe(`${JSON.stringify(built)}\n`)
  })

  it('holds every occupation, its titles in the words scoring reads titles in, and singular occupation titles', () => {
    expect(built.occupations).toHaveLength(1016)
    expect(built.titles.length).toBeGreaterThan(40_000)
    for (const title of built.titles.slice(0, 2000)) expect(roleWords(title).join(' ')).toBe(title)
    const nurse = built.titles.indexOf('registered nurse')
    expect(built.occupations[built.of[nurse] as number]![0]).toBe('29-1141.00')
    const related = built.occupations.find(([code]) => code === '29-1141.00')!
    expect(related[3].map((at) => built.occupations[at]![1])).toContain('nurse practitioner')
  })
})
