import {describe, expect, it} from 'vitest'
import {renderJobDetail} from '../../../src/cli/render/job-detail.js'
import {makeStyle} from '../../../src/cli/style.js'

type Job = Parameters<typeof renderJobDetail>[0]

function job(description: string): Job {
  return {
    id: 7,
    title: 'Backend Engineer',
    company: 'Acme',
    location: 'Remote',
    url: 'https://example.org/jobs/7',
    source: 'remoteok',
    posted_date: '2026-11-20',
    board_id: null,
    description,
    salary: null,
    employment_type: null,
    seniority: null,
    tags: [],
    remote: null,
    regions: [],
    timezones: [],
    company_url: null,
    score: null,
    reasons: [],
    first_seen: '2026-11-20T08:00:00.000',
    last_seen: '2026-11-22T08:00:00.000',
    closed_at: null,
    reopened: false,
    reposted: false,
    also_on: [],
    tracked_status: null,
    tracked_url: null,
    verdict: null,
    parts: [],
  } as unknown as Job
}

/** The description's lines as `jobagent jobs <id>` prints them at `width` columns. */
function descriptionLines(description: string, width: number): string[] {
  const text = renderJobDetail(job(description), makeStyle(false), width, {now: new Date(2026, 4, 11, 12)})
  const lines = text.split('\n')
  return lines.slice(lines.indexOf('') + 1, lines.lastIndexOf('Track it with: jobagent apply 7') - 1)
}

describe('a closed job in jobagent jobs <id>', () => {
  it('counts the days since it closed from the clock it is given, not the system clock', () => {
    const closed = {...job('Gone.'), closed_at: '2026-05-01T09:00:00.000'} as Job
    const at = (now: Date) => renderJobDetail(closed, makeStyle(false), 80, {now}).split('\n')
    expect(at(new Date(2026, 4, 11, 12))).toContain('Closed:   10 days ago (2026-05-01): no board lists it any more')
    expect(at(new Date(2027, 4, 1, 12))).toContain('Closed:   365 days ago (2026-05-01): no board lists it any more')
  })
})

describe('the description of jobagent jobs <id>', () => {
  it('wraps to the width with no space leading a continuation line and none trailing a line', () => {
    const lines = descriptionLines(
      'We build   APIs for shipping. You will own the platform and its tooling, end to end.\n\nBenefits:  remote first.',
      24,
    )
    expect(lines).toEqual([
      'We build   APIs for',
      'shipping. You will own',
      'the platform and its',
      'tooling, end to end.',
      '',
      'Benefits:  remote first.',
    ])
    for (const line of lines) {
      expect(line).not.toMatch(/^ | $/)
      expect(line.length).toBeLessThanOrEqual(24)
    }
  })

  it('keeps the indentation of a list item, and wraps it at the margin', () => {
    const lines = descriptionLines('You bring:\n  - five years of TypeScript on the server side\n  - curiosity   ', 24)
    expect(lines).toEqual(['You bring:', '  - five years of', 'TypeScript on the', 'server side', '  - curiosity'])
  })
})
