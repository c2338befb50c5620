import {describe, expect, it} from 'vitest'
import {EMPLOYMENT_TYPE_TABLE, employmentType, employmentTypeKey} from '../../../src/core/jobs/employment-type.js'

describe('employmentType', () => {
  it.each([
    // Remotive job_type
    ['full_time', 'full_time'],
    ['part_time', 'part_time'],
    ['contract', 'contract'],
    ['freelance', 'contract'],
    ['internship', 'internship'],
    // Jobicy jobType, 2024 and 2026 spellings
    ['full-time', 'full_time'],
    ['Full-Time', 'full_time'],
    ['part-time', 'part_time'],
    ['temporary', 'temporary'],
    // Himalayas employmentType
    ['Full Time', 'full_time'],
    ['Part Time', 'part_time'],
    ['Contractor', 'contract'],
    ['Intern', 'internship'],
    ['Temporary', 'temporary'],
    // Ashby employmentType
    ['FullTime', 'full_time'],
    ['PartTime', 'part_time'],
    ['Contract', 'contract'],
    // Lever commitment and We Work Remotely type
    ['Part-Time', 'part_time'],
    ['Internship', 'internship'],
    // Rippling employmentType.label (`CONTRACTOR` and `TEMP` are the words above)
    ['SALARIED_FT', 'full_time'],
    ['SALARIED_PT', 'part_time'],
    ['HOURLY_FT', 'full_time'],
    ['HOURLY_PT', 'part_time'],
    ['CONTRACTOR', 'contract'],
    ['TEMP', 'temporary'],
    // Arbeitnow job_types
    ['Full-time permanent', 'full_time'],
    ['Full time', 'full_time'],
    ['Vollzeit', 'full_time'],
    ['Festanstellung', 'full_time'],
    ['Teilzeit', 'part_time'],
    ['Werkstudent', 'part_time'],
    ['Working student', 'part_time'],
    ['Minijob', 'part_time'],
    ['Praktikum', 'internship'],
    ['Praktikant', 'internship'],
    ['Ausbildung', 'internship'],
    ['trainee', 'internship'],
    ['befristet', 'temporary'],
    ['Freelance', 'contract'],
    ['freiberuflich', 'contract'],
    // Case, spaces, - and _ do not matter
    ['  FULL -- TIME ', 'full_time'],
    ['Part_Time', 'part_time'],
  ])('%j is %s', (value, expected) => {
    expect(employmentType(value)).toBe(expected)
  })

  it.each([
    'berufserfahren',
    'experienced',
    'Berufseinsteiger',
    'professional / experienced',
    'teamleitung',
    'Side',
    '',
  ])('%j is no type', (value) => {
    expect(employmentType(value)).toBeNull()
  })

  it('takes the first value of a list that maps, skipping values that are no type', () => {
    expect(employmentType(['experienced', 'Full-time permanent'])).toBe('full_time')
    expect(employmentType(['Full-time permanent', 'experienced'])).toBe('full_time')
    expect(employmentType(['berufserfahren', 'Werkstudent', 'Vollzeit'])).toBe('part_time')
    expect(employmentType(['Side', 'teamleitung'])).toBeNull()
    expect(employmentType([])).toBeNull()
  })

  it('is null for values that are not strings', () => {
    expect(employmentType(null)).toBeNull()
    expect(employmentType(undefined)).toBeNull()
    expect(employmentType(1)).toBeNull()
    expect(employmentType([null, 2, {}])).toBeNull()
    expect(employmentType([3, 'contract'])).toBe('contract')
  })

  it('keys the table the way it normalises board values', () => {
    for (const key of Object.keys(EMPLOYMENT_TYPE_TABLE)) expect(employmentTypeKey(key)).toBe(key)
  })
})
