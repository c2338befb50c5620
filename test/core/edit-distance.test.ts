import {describe, expect, it} from 'vitest'
import {editDistance, nearestWord} from '../../src/core/edit-distance.js'

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and a swap of neighbours as one edit each', () => {
    expect(editDistance('interviewing', 'interviewing')).toBe(0)
    expect(editDistance('intervewing', 'interviewing')).toBe(1)
    expect(editDistance('stauts', 'status')).toBe(1)
    expect(editDistance('offr', 'offer')).toBe(1)
    expect(editDistance('', 'saved')).toBe(5)
  })
})

describe('nearestWord', () => {
  const statuses = ['saved', 'applied', 'interviewing', 'offer', 'accepted', 'rejected', 'withdrawn', 'ghosted']

  it('gives the known word a typo is near, whatever its case, and nothing for a word near none', () => {
    expect(nearestWord('intervewing', statuses)).toBe('interviewing')
    expect(nearestWord('REJECTD', statuses)).toBe('rejected')
    expect(nearestWord('ghostd', statuses)).toBe('ghosted')
    expect(nearestWord('hired', statuses)).toBeUndefined()
    expect(nearestWord('x', statuses)).toBeUndefined()
  })

  it('answers a hostile 1 MB word at once: a word far longer than every known one is near none', () => {
    const started = performance.now()
    expect(nearestWord('a'.repeat(1_000_000), statuses)).toBeUndefined()
    expect(performance.now() - started).toBeLessThan(1000)
  })
})
