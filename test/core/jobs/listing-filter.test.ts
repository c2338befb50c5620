import {describe, expect, it} from 'vitest'
import {ValidationError} from '../../../src/core/errors.js'
import {jobListFilter} from '../../../src/core/jobs/listing-filter.js'

const NOW = new Date(2026, 10, 27, 12, 0, 0)

function job(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Backend Engineer',
    company: 'Acme',
    tags: ['TypeScript', 'node'],
    source: 'greenhouse',
    also_on: [{source: 'remoteok', url: 'https://remoteok.com/1'}],
    first_seen: '2026-11-25T08:00:00.000',
    ...overrides,
  }
}

describe('the filters of a job list', () => {
  it('matches text in the title, company or a tag, any case, taken literally', () => {
    expect(jobListFilter({search: 'typescript'}, NOW)(job())).toBe(true)
    expect(jobListFilter({search: 'ACME'}, NOW)(job())).toBe(true)
    expect(jobListFilter({search: 'backend eng'}, NOW)(job())).toBe(true)
    expect(jobListFilter({search: 'rust'}, NOW)(job())).toBe(false)
    expect(jobListFilter({search: 'type.*'}, NOW)(job())).toBe(false)
  })

  it('matches the board type of the job or of another listing, not a part of it', () => {
    expect(jobListFilter({source: 'Greenhouse'}, NOW)(job())).toBe(true)
    expect(jobListFilter({source: 'remoteok'}, NOW)(job())).toBe(true)
    expect(jobListFilter({source: 'green'}, NOW)(job())).toBe(false)
  })

  it('matches jobs first seen within the last days, weeks or months, and goes together with the others', () => {
    expect(jobListFilter({since: '3d'}, NOW)(job())).toBe(true)
    expect(jobListFilter({since: '1d'}, NOW)(job())).toBe(false)
    expect(jobListFilter({since: '1w', source: 'greenhouse', search: 'rust'}, NOW)(job())).toBe(false)
    expect(jobListFilter({}, NOW)(job())).toBe(true)
  })

  it('refuses a since it cannot read', () => {
    expect(() => jobListFilter({since: 'yesterday'}, NOW)).toThrow(ValidationError)
  })
})
