import {describe, expect, it} from 'vitest'
import {
  APPLICATION_FIELDS,
  EDITABLE_FIELDS,
  EXTRA_FIELDS,
  GIVEN_FIELDS,
  TRACKED_FIELDS,
  trackedApplicationSchema,
} from '../../../src/core/applications/application.js'

describe('the fields of a tracked application', () => {
  it('have their facts in the order of the schema, the eight record fields first', () => {
    expect(TRACKED_FIELDS).toEqual(Object.keys(trackedApplicationSchema.shape))
    expect(APPLICATION_FIELDS).toEqual(TRACKED_FIELDS.slice(0, 8))
  })

  it('say which are kept beside the record, given when recording and edited', () => {
    expect(EXTRA_FIELDS).toEqual(['salary_expected', 'salary_offered', 'referral'])
    expect(GIVEN_FIELDS).toEqual(['referral'])
    expect(EDITABLE_FIELDS).toEqual([
      'title',
      'company',
      'location',
      'source',
      'url',
      'salary_expected',
      'salary_offered',
      'referral',
    ])
  })
})
