import {describe, expect, it} from 'vitest'
import type {JobResponse} from '../../../src/core/jobs/job.js'
import {salaryFromAmounts} from '../../../src/core/jobs/salary.js'
import {
  buildDigest,
  buildTestDigest,
  HTML_STYLE,
  jobLine,
  MARKDOWN_STYLE,
  renderDigest,
  TEXT_BODY_STYLE,
  TEXT_STYLE,
  utf8Bytes,
} from '../../../src/core/notifications/digest.js'
import {noDetails} from '../../helpers/job-details.js'

function job(n: number, overrides: Partial<JobResponse> = {}): JobResponse {
  return {
    ...noDetails(),
    title: `Engineer ${n}`,
    company: `Company ${n}`,
    location: 'Remote',
    url: `https://example.org/jobs/${n}`,
    source: 'remoteok',
    posted_date: null,
    ...overrides,
  }
}

const jobs = (count: number) => Array.from({length: count}, (_, index) => job(index + 1))

describe('buildDigest', () => {
  it('names at most max_items follow-ups and counts the rest in one line, while the title counts them all', () => {
    const followUps = Array.from({length: 4}, (_, index) => ({
      title: `Role ${index}`,
      company: 'Acme',
      location: 'Remote',
      url: `https://example.org/applied/${index}`,
      source: 'bench',
      applied_date: '2026-10-01T09:00:00.000',
      status: 'applied' as const,
      notes: '',
      updated_at: '2026-10-01T09:00:00.000',
      posting_closed_at: null,
      id: index + 1,
      salary_expected: '',
      salary_offered: '',
      referral: '',
      removed_at: null,
      next_action: '',
      next_action_due: null,
      documents: [],
      days_waiting: 20,
      suggest_ghosted: false,
    }))
    const digest = buildDigest(jobs(1), {maxItems: 2, followUps: {named: followUps.slice(0, 2), total: 4}})
    expect(digest.title).toBe('1 new job, 4 follow-ups due')
    expect(digest.followUps).toEqual([
      'Follow up: Role 0 at Acme (applied, 20 days without news), https://example.org/applied/0',
      'Follow up: Role 1 at Acme (applied, 20 days without news), https://example.org/applied/1',
      '+2 more follow-ups: jobagent followups lists them all',
    ])
    expect(buildDigest([], {maxItems: 4, followUps: {named: followUps, total: 4}}).followUps).toHaveLength(4)
  })

  it('counts every new job in the title and lists at most max_items of them', () => {
    const digest = buildDigest(jobs(7), {maxItems: 5})
    expect(digest.title).toBe('7 new jobs')
    expect(digest.lines).toHaveLength(5)
    expect(digest.jobs).toHaveLength(5)
    expect(digest.more).toBe(2)
    expect(digest.total).toBe(7)
    expect(digest.type).toBe('new_jobs')
  })

  it('lists the jobs as JobResponse objects without the description, ids and dates a stored job carries', () => {
    const stored = {
      ...job(1, {description: 'A long text'}),
      id: 7,
      first_seen: '2026-11-22T08:00:00',
      notified_at: null,
    }
    const {description: _description, ...expected} = job(1)
    expect(buildDigest([stored], {maxItems: 20}).jobs).toEqual([expected])
  })

  it('puts the salary and employment type in each line when the board gave them', () => {
    const salary = salaryFromAmounts({min: 70000, max: 90000, currency: 'EUR', period: 'year'})
    const paid = job(1, {salary, employment_type: 'full_time'})
    expect(buildDigest([paid, job(2)], {maxItems: 20}).lines).toEqual([
      'Engineer 1, Company 1 (Remote), EUR 70k-90k/yr, full time, remoteok, https://example.org/jobs/1',
      'Engineer 2, Company 2 (Remote), remoteok, https://example.org/jobs/2',
    ])
  })

  it('says "1 new job" for a single job and has nothing more', () => {
    const digest = buildDigest(jobs(1), {maxItems: 20})
    expect(digest.title).toBe('1 new job')
    expect(digest.more).toBe(0)
  })

  it('writes each line as title, company (location), source, link', () => {
    expect(jobLine(job(3))).toBe('Engineer 3, Company 3 (Remote), remoteok, https://example.org/jobs/3')
  })

  it('leaves out the location when the board gave none', () => {
    expect(jobLine(job(3, {location: ' '}))).toBe('Engineer 3, Company 3, remoteok, https://example.org/jobs/3')
  })

  it('marks a test digest as such and lists no jobs', () => {
    const digest = buildTestDigest()
    expect(digest.type).toBe('test')
    expect(digest.jobs).toEqual([])
    expect(digest.lines).toHaveLength(1)
  })
})

describe('renderDigest', () => {
  it('writes plain text as the title, a blank line, the jobs and "+N more"', () => {
    const text = renderDigest(buildDigest(jobs(3), {maxItems: 2}), TEXT_STYLE)
    expect(text).toBe(
      [
        '3 new jobs',
        '',
        'Engineer 1, Company 1 (Remote), remoteok, https://example.org/jobs/1',
        'Engineer 2, Company 2 (Remote), remoteok, https://example.org/jobs/2',
        '+1 more',
      ].join('\n'),
    )
  })

  it('drops whole lines and grows "+N more" rather than cut a line in half', () => {
    const digest = buildDigest(jobs(50), {maxItems: 50})
    const text = renderDigest(digest, TEXT_BODY_STYLE, {limit: 300})
    expect(text.length).toBeLessThanOrEqual(300)
    const lines = text.split('\n')
    const shown = lines.slice(0, -1)
    expect(shown.every((line, index) => line === digest.lines[index])).toBe(true)
    expect(lines.at(-1)).toBe(`+${50 - shown.length} more`)
  })

  it('counts UTF-8 bytes when asked to', () => {
    const digest = buildDigest(
      jobs(30).map((item) => ({...item, title: 'Développeur·se 🚀'})),
      {maxItems: 30},
    )
    const text = renderDigest(digest, TEXT_BODY_STYLE, {limit: 500, measure: utf8Bytes})
    expect(utf8Bytes(text)).toBeLessThanOrEqual(500)
    expect(text).toMatch(/\n\+\d+ more$/)
  })

  it('shortens only a heading that alone exceeds the limit', () => {
    const text = renderDigest(buildDigest(jobs(2), {maxItems: 2}), TEXT_STYLE, {limit: 8})
    expect(text).toBe('2 new j…')
  })

  it('links job titles in Markdown and escapes what Discord would format', () => {
    const digest = buildDigest([job(1, {title: 'C++ *Lead* [remote]', url: 'https://x.org/a_(b)'})], {maxItems: 5})
    const text = renderDigest(digest, MARKDOWN_STYLE)
    expect(text).toBe(
      '**1 new job**\n- [C++ \\*Lead\\* \\[remote\\]](<https://x.org/a_%28b%29>), Company 1 (Remote), remoteok',
    )
  })

  it('escapes HTML and links job titles in the HTML part', () => {
    const digest = buildDigest([job(1, {title: 'R&D <Lead>', url: 'https://x.org/?a=1&b=2'})], {maxItems: 5})
    expect(renderDigest(digest, HTML_STYLE)).toBe(
      [
        '<h2>1 new job</h2>',
        '<ul>',
        '<li><a href="https://x.org/?a=1&amp;b=2">R&amp;D &lt;Lead&gt;</a>, Company 1 (Remote), remoteok</li>',
        '</ul>',
      ].join('\n'),
    )
  })
})
