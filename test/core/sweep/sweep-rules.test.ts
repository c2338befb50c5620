import {describe, expect, it} from 'vitest'
import {candidateIndexes} from '../../../src/core/sweep/candidates.js'
import {directoryEntry, selectEntries, sweptBoard} from '../../../src/core/sweep/directory.js'
import {
  checkInterval,
  failureReason,
  isResting,
  looksOffline,
  OFFLINE_AFTER,
  platformPause,
  profileKey,
  restUntil,
  strainsPlatform,
} from '../../../src/core/sweep/sweep-rules.js'
import {knowledge} from '../../helpers/knowledge.js'
import {scoringJob, scoringProfile} from '../../helpers/matching.js'

const known = () => true

describe('a directory entry', () => {
  it('is read from a line of the shared shape, the company falling back to the slug', () => {
    expect(directoryEntry('{"ats": "lever", "slug": "acme", "company": "", "region": "eu"}', 'd:1')).toEqual({
      ats: 'lever',
      slug: 'acme',
      company: 'acme',
      region: 'eu',
    })
    expect(directoryEntry('   ', 'd:2')).toBeNull()
  })

  it('is refused with its file and line when it is not one', () => {
    expect(() => directoryEntry('{"ats": "lever"', 'boards.jsonl:7')).toThrow('boards.jsonl:7: not a JSON object')
    expect(() => directoryEntry('{"ats": 3, "slug": "x"}', 'boards.jsonl:8')).toThrow(
      'boards.jsonl:8: an entry needs "ats" and "slug" as text',
    )
  })

  it('reads a slug of the shared shape as a sources entry takes it: Workday host form, Teamtailor hosts, escapes', () => {
    const entry = (line: object) => directoryEntry(JSON.stringify(line), 'd:1')
    const workday = entry({ats: 'workday', slug: 'nvidia.wd5.myworkdayjobs.com/NVIDIAExternalCareerSite'})
    expect(workday?.slug).toBe('nvidia.wd5/NVIDIAExternalCareerSite')
    expect(entry({ats: 'workday', slug: 'nvidia.wd5/NVIDIAExternalCareerSite'})?.slug).toBe(workday?.slug)
    expect(entry({ats: 'teamtailor', slug: 'bryter.teamtailor.com'})?.slug).toBe('bryter')
    expect(entry({ats: 'greenhouse', slug: 'acme%20labs'})?.slug).toBe('acme labs')
  })

  it('becomes the board the adapters read: a Teamtailor site on its own host, Lever EU, keyed by its slug', () => {
    const own = sweptBoard({ats: 'teamtailor', slug: 'careers.arrive.com', company: 'Arrive'}, known)
    expect(own?.config.url).toBe('https://careers.arrive.com')
    expect(own?.key).toBe('teamtailor:careers.arrive.com')
    expect(sweptBoard({ats: 'teamtailor', slug: 'bryter', company: 'Bryter'}, known)?.config.url).toBeUndefined()
    expect(sweptBoard({ats: 'lever', slug: 'acme', company: 'Acme', region: 'eu'}, known)?.config.region).toBe('eu')
    expect(sweptBoard({ats: 'unknown', slug: 'acme', company: 'Acme'}, () => false)).toBeUndefined()
  })

  it('is selected by ATS, company name or slug, and up to a limit', async () => {
    async function* directory() {
      yield {ats: 'greenhouse', slug: 'a', company: 'Alpha'}
      yield {ats: 'lever', slug: 'b', company: 'Beta'}
      yield {ats: 'greenhouse', slug: 'c', company: 'Gamma'}
    }
    const keys = async (selection: Parameters<typeof selectEntries>[1]) => {
      const found: string[] = []
      for await (const entry of selectEntries(directory(), selection)) found.push(entry.slug)
      return found
    }
    expect(await keys({ats: ['Greenhouse']})).toEqual(['a', 'c'])
    expect(await keys({companies: ['beta', 'c']})).toEqual(['b', 'c'])
    expect(await keys({limit: 2})).toEqual(['a', 'b'])
  })
})

describe('the rules of a sweep', () => {
  const now = new Date('2026-11-22T05:00:00Z')

  it('refuses a sweep within the interval of the last one, unless forced', () => {
    expect(() => checkInterval('2026-11-22T01:00:00.000Z', now, 24, false)).toThrow(
      /less than sweep.interval_hours \(24\) ago; the next may start at 2026-11-23T01:00:00.000Z/,
    )
    expect(() => checkInterval('2026-11-22T01:00:00.000Z', now, 24, true)).not.toThrow()
    expect(() => checkInterval('2026-11-21T01:00:00.000Z', now, 24, false)).not.toThrow()
    expect(() => checkInterval(null, now, 24, false)).not.toThrow()
  })

  it('rests a dead board a week, then twice as long each time, at most 90 days', () => {
    expect(restUntil(now, 1)).toBe('2026-11-29T05:00:00.000Z')
    expect(restUntil(now, 2)).toBe('2026-12-06T05:00:00.000Z')
    expect(restUntil(now, 10)).toBe('2027-02-20T05:00:00.000Z')
    const state = {
      key: 'k',
      etag: null,
      last_modified: null,
      answer_hash: null,
      dead_since: null,
      dead_count: 1,
      profile_key: null,
    }
    expect(isResting({...state, dead_until: restUntil(now, 1)}, now)).toBe(true)
    expect(isResting({...state, dead_until: '2026-11-01T00:00:00.000Z'}, now)).toBe(false)
  })

  it('waits what Retry-After asks, else backs a platform off doubling from the base', () => {
    expect(platformPause(1, 2000, 500)).toBe(2000)
    expect([0, 1, 2, 3].map((failures) => platformPause(failures, undefined, 500))).toEqual([0, 500, 1000, 2000])
    expect(platformPause(20, undefined, 500)).toBe(60_000)
  })

  it('names a failure by its kind', () => {
    expect(failureReason({message: 'HTTP 503', status: 503})).toBe('HTTP 503')
    expect(failureReason({message: 'timed out after 15 s'})).toBe('timed out')
    expect(failureReason({message: 'malformed JSON: Unexpected end'})).toBe('malformed answer')
    expect(failureReason({message: 'unexpected response shape: expected x'})).toBe('unexpected shape')
  })

  it("backs a platform off for a failure that says it is strained, not for one board's unreadable answer", () => {
    expect(['timed out', 'network error', 'HTTP 429', 'HTTP 503', 'HTTP 500', 'other'].map(strainsPlatform)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ])
    expect(['malformed answer', 'unexpected shape', 'HTTP 403', 'HTTP 410'].map(strainsPlatform)).toEqual([
      false,
      false,
      false,
      false,
    ])
  })
})

describe('the candidates of a list', () => {
  it('are the jobs whose title is near a wanted role and that no gate holds back', () => {
    const matching = {
      profile: scoringProfile({
        roles: ['backend engineer'],
        seniority: 'senior',
        home: 'Germany',
        locations: ['remote'],
      }),
      options: {},
      knowledge,
    }
    const jobs = [
      scoringJob({title: 'Senior Backend Engineer', location: 'Remote'}),
      scoringJob({title: 'Account Executive', location: 'Remote'}),
      scoringJob({
        title: 'Senior Backend Engineer',
        location: 'Remote (US only)',
        remote: true,
        regions: ['United States'],
      }),
      scoringJob({title: 'Backend Engineering Intern', location: 'Remote'}),
    ]
    expect(candidateIndexes(jobs, matching)).toEqual([0])
  })

  it('are decided on what every list says, not on a description some lists carry', () => {
    const matching = {
      profile: scoringProfile({roles: ['backend engineer'], skills: {postgresql: 3}, avoid: ['php']}),
      options: {},
      knowledge,
    }
    const jobs = [
      // An avoided word in the description gates the job when it is ranked, not when the list is read.
      scoringJob({title: 'Backend Engineer', description: 'Requirements: PHP, PostgreSQL.'}),
      // A wanted skill in the description of another kind of work does not make it a candidate.
      scoringJob({title: 'Office Manager', description: 'Requirements: PostgreSQL, SQL reporting.'}),
    ]
    expect(candidateIndexes(jobs, matching)).toEqual([0])
  })
})

describe('profileKey', () => {
  it('changes with the profile, the options and the knowledge, so kept candidates are picked anew under new rules', () => {
    const matching = {profile: scoringProfile(), options: {}, knowledge}
    const key = profileKey(matching)
    expect(profileKey({...matching})).toBe(key)
    expect(profileKey({...matching, profile: {...matching.profile, roles: ['nurse coach']}})).not.toBe(key)
    expect(profileKey({...matching, options: {fx: {USD: 1}}})).not.toBe(key)
    expect(profileKey({...matching, knowledge: {...knowledge, version: 'another'}})).not.toBe(key)
  })
})

describe('looksOffline', () => {
  it('takes the network as down only when nothing answered and enough boards on enough ATSs found no network', () => {
    const seen = {answered: 0, networkFailures: OFFLINE_AFTER, atsFailed: 3, atsAsked: 13}
    expect(looksOffline(seen)).toBe(true)
    // One board answered: the failures are dead hosts, not the network.
    expect(looksOffline({...seen, answered: 1})).toBe(false)
    expect(looksOffline({...seen, networkFailures: OFFLINE_AFTER - 1})).toBe(false)
    // One ATS whose host cannot be found, while the others have not answered yet.
    expect(looksOffline({...seen, atsFailed: 2})).toBe(false)
    // A sweep of one ATS: that ATS is all there is.
    expect(looksOffline({...seen, atsFailed: 1, atsAsked: 1})).toBe(true)
  })
})
