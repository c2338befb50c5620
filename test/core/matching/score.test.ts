import {describe, expect, it} from 'vitest'
import type {JobResponse} from '../../../src/core/jobs/job.js'
import {salaryFromAmounts} from '../../../src/core/jobs/salary.js'
import type {Profile} from '../../../src/core/matching/profile.js'
import {RoleMatcher} from '../../../src/core/matching/role-match.js'
import {descriptionAnalyser, rankJobs, rankRead, scoreJobs} from '../../../src/core/matching/score.js'
import {DescriptionLines} from '../../../src/core/matching/text-kinds.js'
import {VerdictModel} from '../../../src/core/matching/verdicts.js'
import {knowledge} from '../../helpers/knowledge.js'
import {scoringJob, scoringProfile} from '../../helpers/matching.js'

const job = scoringJob

const profile = scoringProfile

/** One job scored among others (the others set the skills' rarity); the one's result. */
const one = (target: JobResponse, wanted: Profile, others: JobResponse[] = [], options = {}) =>
  scoreJobs([target, ...others], wanted, {...options, knowledge, explain: true})[0]!

const part = (scored: ReturnType<typeof one>, name: string) => scored.parts.find((each) => each.part === name)

const platform = profile({
  roles: ['platform engineer', 'site reliability engineer', 'devops engineer'],
  skills: {kubernetes: 3, terraform: 3, go: 2, aws: 2, prometheus: 1},
  avoid: ['on-call 24/7', 'php'],
  seniority: 'senior',
  home: 'Netherlands',
  locations: ['remote', 'amsterdam', 'europe'],
})

describe('the role', () => {
  it('reads titles into occupations: the same one 1, a related one by its tier, the same field a little', () => {
    const roles = new RoleMatcher(['registered nurse'], knowledge.occupations)
    expect(roles.match('Senior Registered Nurse (m/w/d)').value).toBe(1)
    expect(roles.match('Staff Nurse').value).toBe(1)
    const practitioner = roles.match('Nurse Practitioner')
    expect(practitioner.value).toBeGreaterThanOrEqual(0.35)
    expect(practitioner.value).toBeLessThan(1)
    expect(practitioner.reason).toBe('~ role: nurse practitioner, related to registered nurse')
    expect(roles.match('Account Executive').value).toBe(0)
  })

  it('matches a wanted role the data does not know by its own words', () => {
    const roles = new RoleMatcher(['beekeeper'], knowledge.occupations)
    expect(roles.match('Senior Beekeeper, Honey Farm').value).toBe(1)
    expect(roles.match('Bee researcher').value).toBe(0)
  })
})

describe('where a skill stands', () => {
  it('reads requirements, duties, boilerplate and keyword lists from the headings and the lines', () => {
    const text = [
      'We build things.',
      'Requirements:',
      '- Kubernetes in production',
      'What we offer',
      '- Terraform training budget',
      'Responsibilities',
      '- Run Go services',
      'Tags: aws, gcp, azure, php, java, rust, ruby',
      'We are an equal opportunity employer and value AWS diversity.',
    ].join('\n')
    expect(new DescriptionLines(text, text.toLowerCase()).all()).toEqual([
      'body',
      'requirements',
      'requirements',
      'nothing',
      'nothing',
      'duties',
      'duties',
      'nothing',
      'nothing',
    ])
  })

  it('counts each skill once, at the best place it stands', () => {
    const scored = one(
      job({
        title: 'Platform Engineer',
        description: 'Requirements:\n- Kubernetes\n- Kubernetes again\nAbout us\nWe love Terraform.',
      }),
      platform,
    )
    expect(scored.reasons).toContain('+ kubernetes (requirements)')
    expect(scored.reasons.join(' ')).not.toContain('terraform')
    expect(part(scored, 'skills')?.detail).toContain('terraform (weight 3): only in boilerplate or a keyword list, 0')
  })
})

describe('the score of a job against a profile', () => {
  it('is 100 x relevance x gates x adjustments, the role weighing most', () => {
    const sre = one(
      job({title: 'Site Reliability Engineer', description: 'Requirements:\n- Kubernetes, Terraform'}),
      platform,
    )
    expect(part(sre, 'role')?.value).toBe(1)
    expect(sre.score).toBeGreaterThan(70)
    const designer = one(
      job({title: 'Graphic Designer', description: 'Requirements:\n- Kubernetes, Terraform'}),
      platform,
    )
    expect(designer.score).toBeLessThan(30)
    expect(sre.reasons[0]).toBe('+ role: site reliability engineer')
  })

  it('reads common spellings alike: k8s is kubernetes, nodejs and node are node.js', () => {
    const backend = profile({skills: {'node.js': 3, kubernetes: 1}})
    const scored = one(job({title: 'NodeJS developer', description: 'We run k8s.'}), backend)
    expect(scored.reasons).toEqual(['+ node.js (title)', '+ kubernetes (description)'])
  })

  it('weighs a skill by its rarity among the jobs listed with it', () => {
    const skilled = profile({skills: {sales: 1, salesforce: 1}})
    const everywhere = Array.from({length: 40}, (_, n) => job({title: `Job ${n}`, description: 'We do sales.'}))
    const common = one(job({description: 'We do sales.'}), skilled, everywhere)
    const rare = one(job({description: 'We use Salesforce.'}), skilled, everywhere)
    expect(rare.rank).toBeGreaterThan(common.rank)
  })

  it('gates a remote job only for other countries, and an on-site one in a place not accepted', () => {
    const gate = (fields: Partial<JobResponse>) => part(one(job({title: 'SRE', ...fields}), platform), 'gates')!
    expect(gate({remote: true}).value).toBe(1)
    expect(gate({remote: true, regions: ['Europe']}).value).toBe(1)
    expect(gate({remote: true, location: 'Remote - Netherlands'}).value).toBe(1)
    expect(gate({remote: true, regions: ['USA']}).detail).toEqual([
      'remote for USA only, not open to netherlands: x0.2',
    ])
    expect(gate({remote: false, location: 'Amsterdam'}).value).toBe(1)
    // Europe among the places accepted is remote work from Europe: an office in Berlin is not a place named.
    expect(gate({remote: false, location: 'Berlin, Germany'}).detail).toEqual([
      'on site in Berlin, Germany, not a place you accept: x0.2',
    ])
    expect(gate({remote: false, location: 'Austin, Texas'}).value).toBe(0.2)
    // With only regions named, the office must be where the person lives.
    const anywhere = profile({roles: ['sre'], home: 'India', locations: ['remote', 'anywhere']})
    const office = (location: string) => part(one(job({title: 'SRE', remote: false, location}), anywhere), 'gates')!
    expect(office('Oakland, CA').value).toBe(0.2)
    expect(office('Bengaluru').value).toBe(1)
    // Silence is not a veto.
    expect(gate({location: 'Somewhere nice'}).value).toBe(1)
    expect(gate({remote: true, location: 'Anywhere in the World'}).value).toBe(1)
  })

  it('reads "anywhere" as no restriction, never as a region', () => {
    const data = profile({roles: ['ai engineer'], locations: ['remote', 'worldwide', 'anywhere']})
    const gitlab = one(job({title: 'AI Engineer', location: 'Remote, Bangalore'}), data)
    expect(part(gitlab, 'gates')?.value).toBe(1)
    const nomad = profile({roles: ['ai engineer'], home: 'anywhere'})
    expect(part(one(job({title: 'AI Engineer', remote: true, regions: ['USA']}), nomad), 'gates')?.value).toBe(1)
    expect(knowledge.places.overlaps('everywhere', 'germany')).toBe(true)
    expect(knowledge.places.placesIn('Remote - US/Canada')).toEqual(['united states', 'canada'])
  })

  it('gates avoided terms in the title or the requirements, costs a little in boilerplate', () => {
    const title = one(job({title: 'PHP Platform Engineer'}), platform)
    expect(part(title, 'gates')?.detail).toEqual(['php in the title: x0.2'])
    const required = one(job({title: 'Platform Engineer', description: 'Requirements:\n- PHP'}), platform)
    expect(part(required, 'gates')?.value).toBe(0.5)
    const boilerplate = one(job({title: 'Platform Engineer', description: 'NOT YOUR TECH STACK?\nPHP, Java'}), platform)
    expect(part(boilerplate, 'gates')?.value).toBe(1)
    expect(part(boilerplate, 'adjustments')?.value).toBeCloseTo(-0.05)
  })

  it('gates a level two steps away and pay below the floor; adjusts a little for the level and the place', () => {
    expect(part(one(job({title: 'Junior Platform Engineer'}), platform), 'gates')?.value).toBe(0.5)
    expect(part(one(job({title: 'Staff Platform Engineer'}), platform), 'gates')?.value).toBe(1)
    const floor = {amount: 70000, currency: 'EUR', period: 'year' as const, unknown: 'keep' as const}
    const paid = (min: number) =>
      job({title: 'SRE', salary: salaryFromAmounts({min, max: min, currency: 'EUR', period: 'year'})})
    expect(part(one(paid(50000), platform, [], {minSalary: floor}), 'gates')?.value).toBe(0.5)
    expect(one(paid(80000), platform, [], {minSalary: floor}).reasons).toContain(
      'salary: EUR 80,000 a year, above your floor',
    )
    // Without a salary the job is not below the floor.
    expect(part(one(job({title: 'SRE'}), platform, [], {minSalary: floor}), 'gates')?.value).toBe(1)
  })
})

describe('the invariants of the ranking', () => {
  const pool = [
    job({title: 'Site Reliability Engineer', remote: true, description: 'Requirements:\n- Terraform'}),
    job({title: 'Office Assistant', remote: true, description: 'Filing and phone calls.'}),
    job({title: 'DevOps Engineer', location: 'Austin, Texas', remote: false}),
    job({title: 'Barista', location: 'Amsterdam', description: 'Coffee, AWS.'}),
    job({title: 'Data Analyst', remote: true, tags: ['sql']}),
  ]

  it('ranks a job with no role or skill evidence below every job with some', () => {
    // The office assistant and the data analyst name no wanted role and no skill; the others do.
    const scored = scoreJobs(pool, platform, {knowledge})
    const without = [scored[1]!, scored[4]!]
    const withEvidence = [scored[0]!, scored[2]!, scored[3]!]
    for (const none of without) {
      expect(none.rank).toBe(0)
      for (const other of withEvidence) expect(other.rank).toBeGreaterThan(none.rank)
    }
  })

  it('ranks a gated job below an ungated job of equal relevance', () => {
    const open = job({title: 'Platform Engineer', remote: true, posted_date: '2026-11-20'})
    const gated = job({title: 'Platform Engineer', remote: true, regions: ['USA'], posted_date: '2026-11-20'})
    for (const gate of [
      gated,
      job({title: 'Junior Platform Engineer', remote: true}),
      job({title: 'PHP Platform Engineer'}),
    ]) {
      const [a, b] = scoreJobs([open, gate], platform, {knowledge})
      expect(b!.rank).toBeLessThan(a!.rank)
    }
  })

  it('does not raise a score for boilerplate or a long tag list added to a posting', () => {
    const plain = job({title: 'Platform Engineer', description: 'Requirements:\n- Kubernetes'})
    const padded = {
      ...plain,
      description: `${plain.description}\nAbout us\nWe love Terraform, Go, AWS and Prometheus.\nEqual opportunity employer: Go, AWS.`,
      tags: ['terraform', 'go', 'aws', 'prometheus', ...Array.from({length: 12}, (_, n) => `tag${n}`)],
    }
    const [before] = scoreJobs([plain, ...pool], platform, {knowledge})
    const [after] = scoreJobs([padded, ...pool], platform, {knowledge})
    expect(after!.rank).toBeLessThanOrEqual(before!.rank)
  })

  it('scores the same posting the same whatever board it came from', () => {
    const posting = {title: 'SRE', description: 'Requirements:\n- Go', remote: true, location: 'Remote'}
    const [a, b] = scoreJobs(
      [
        job({...posting, source: 'remoteok', url: 'https://a.example/1'}),
        job({...posting, source: 'lever', url: 'https://b.example/x'}),
      ],
      platform,
      {knowledge},
    )
    expect(a).toEqual(b)
  })

  it('lets verdicts reorder jobs of similar relevance, bounded, and never lift a job without evidence', () => {
    const ml = profile({roles: ['machine learning engineer']})
    const jobs = [
      job({title: 'ML Engineer, Ads Ranking', tags: ['ads']}),
      job({title: 'ML Engineer, Research', tags: ['pytorch', 'research']}),
      job({title: 'Barista', tags: ['pytorch', 'research']}),
    ]
    const before = rankJobs(jobs, {profile: ml, options: {}, knowledge}).map((ranked) => ranked.title)
    expect(before[0]).toBe('ML Engineer, Ads Ranking')
    const verdicts = new VerdictModel(
      [
        {verdict: 'like', title: 'Research Scientist, ML', tags: ['pytorch', 'research']},
        {verdict: 'dismiss', title: 'ML Engineer, Ads', tags: ['ads']},
      ],
      knowledge.occupations,
    )
    const after = rankJobs(jobs, {profile: ml, options: {}, knowledge}, {verdictModel: verdicts})
    expect(after.map((ranked) => ranked.title)).toEqual([
      'ML Engineer, Research',
      'ML Engineer, Ads Ranking',
      'Barista',
    ])
    expect(after[0]!.reasons).toContain('+ like a job you liked: Research Scientist, ML (research, pytorch) +0.26')
    expect(after[2]!.score).toBe(0)
    for (const ranked of after) expect(ranked.score).toBeLessThanOrEqual(100)
    const judged = verdicts.judge(jobs[1]!)
    expect(judged.change).toBeGreaterThanOrEqual(-0.3)
    expect(judged.change).toBeLessThanOrEqual(0.5)
  })

  it('lifts a gated job the same as one liked by half, still below the same job ungated and unjudged', () => {
    const posting = job({title: 'Junior ML Engineer, Research', tags: ['pytorch']})
    const others = [job({title: 'Barista'}), job({title: 'Data Analyst'}), job({title: 'Nurse'})]
    const liked = new VerdictModel(
      [{verdict: 'like', title: posting.title, tags: posting.tags, company: posting.company}],
      knowledge.occupations,
    )
    const rankOf = (seniority: Profile['seniority'], verdictModel: VerdictModel | null) =>
      scoreJobs([posting, ...others], profile({roles: ['machine learning engineer'], seniority}), {
        knowledge,
        verdictModel,
      })[0]!
    const ungated = rankOf('any', null)
    const gated = rankOf('senior', null)
    const gatedLiked = rankOf('senior', liked)
    expect(gated.reasons).toContain('gate: junior, wanted senior (x0.5)')
    expect(
      gatedLiked.reasons.some((reason) => reason.startsWith('+ like a job you liked: Junior ML Engineer, Research')),
    ).toBe(true)
    expect(gatedLiked.rank).toBeCloseTo(1.5 * gated.rank, 10)
    expect(gatedLiked.rank).toBeLessThan(ungated.rank)
  })

  it('keeps the order without a profile, and jobs of equal score in the order given', () => {
    const [a, b] = [job({title: 'A'}), job({title: 'B'})]
    expect(rankJobs([a, b], null).map((ranked) => [ranked.title, ranked.score])).toEqual([
      ['A', null],
      ['B', null],
    ])
    expect(rankJobs([a, b], {profile: platform, options: {}, knowledge}).map((ranked) => ranked.title)).toEqual([
      'A',
      'B',
    ])
  })
})

describe('ranking jobs read from storage', () => {
  it('gives what rankJobs gives over the same jobs, reading them twice and keeping only those at minScore or more', async () => {
    const jobs = relevanceLikeJobs()
    const matching = {profile: platform, options: {}, knowledge}
    let reads = 0
    const read = async function* () {
      reads++
      yield* jobs
    }
    const streamed = await rankRead(read, matching, {minScore: 20, limit: 100, keyOf: (one) => one.url})
    const held = rankJobs(jobs, matching, {minScore: 20})
    expect(reads).toBe(2)
    expect(streamed.ranked.map(({title, score, reasons}) => ({title, score, reasons}))).toEqual(
      held.map(({title, score, reasons}) => ({title, score, reasons})),
    )
    expect(streamed.scoredAtLeast).toBe(held.length)
    // A skill's rarity is read among all the jobs, not only those kept.
    expect(held.length).toBeGreaterThan(2)
    expect(held.length).toBeLessThan(jobs.length)
  })

  it('keeps the best `limit` of them, counting all that scored at least minScore', async () => {
    const jobs = relevanceLikeJobs()
    const matching = {profile: platform, options: {}, knowledge}
    const held = rankJobs(jobs, matching, {minScore: 20})
    const read = async function* () {
      yield* jobs
    }
    const {ranked, scoredAtLeast} = await rankRead(read, matching, {minScore: 20, limit: 2, keyOf: (one) => one.url})
    expect(ranked.map((one) => one.title)).toEqual(held.slice(0, 2).map((one) => one.title))
    expect(scoredAtLeast).toBe(held.length)
  })

  it('keeps one job per key, the best scored, before it keeps the best `limit`', async () => {
    const jobs = relevanceLikeJobs()
    const matching = {profile: platform, options: {}, knowledge}
    const held = rankJobs(jobs, matching, {minScore: 20})
    // The best job listed again on 600 boards, as a directory whose boards share a posting: one of them is kept,
    // and the next best jobs still make the limit.
    const top = jobs.find((one) => one.url === held[0]?.url) as JobResponse
    const copies = Array.from({length: 600}, (_, n) => ({...top, url: `https://board-${n}.example/1`}))
    const read = async function* () {
      yield* copies
      yield* jobs.filter((one) => one !== top)
    }
    const {ranked} = await rankRead(read, matching, {minScore: 20, limit: 2, keyOf: (one) => one.title})
    // As rankJobs ranks them all (the copies count in each skill's rarity), each title's first listing kept.
    const all = rankJobs([...copies, ...jobs.filter((one) => one !== top)], matching, {minScore: 20})
    const firsts = all.filter((one, at) => all.findIndex((other) => other.title === one.title) === at)
    expect(ranked.map(({url, score}) => ({url, score}))).toEqual(
      firsts.slice(0, 2).map(({url, score}) => ({url, score})),
    )
    expect(ranked.filter((one) => one.url.startsWith('https://board-')).length).toBeLessThanOrEqual(1)
  })

  it('drops the worst as it goes, and still keeps the best `limit` of many', async () => {
    const base = relevanceLikeJobs()
    const jobs = Array.from({length: 1500}, (_, n) => {
      const one = base[n % base.length] as JobResponse
      return {...one, title: `${one.title} ${n}`, url: `https://example.org/many/${n}`}
    })
    const matching = {profile: platform, options: {}, knowledge}
    const read = async function* () {
      yield* jobs
    }
    const {ranked, scoredAtLeast} = await rankRead(read, matching, {minScore: 1, limit: 10, keyOf: (one) => one.url})
    const held = rankJobs(jobs, matching, {minScore: 1})
    expect(scoredAtLeast).toBe(held.length)
    expect(held.length).toBeGreaterThan(600)
    expect(ranked.map((one) => one.url)).toEqual(held.slice(0, 10).map((one) => one.url))
  })
})

/** Jobs of several kinds naming the platform profile's skills in different places, some old, some new. */
function relevanceLikeJobs(): JobResponse[] {
  return [
    job({
      title: 'Senior Platform Engineer',
      description: 'Kubernetes and Terraform on AWS.',
      posted_date: '2026-11-20',
    }),
    job({title: 'Site Reliability Engineer', description: 'We run Kubernetes.', posted_date: '2026-10-01'}),
    job({title: 'DevOps Engineer', tags: ['terraform', 'go'], posted_date: '2026-11-18'}),
    job({title: 'Backend Engineer', description: 'Go services on Kubernetes.', posted_date: '2026-11-19'}),
    job({title: 'Account Executive', description: 'Sell our Kubernetes platform.', posted_date: '2026-11-21'}),
    job({title: 'Office Manager', description: 'Run the office.', posted_date: '2026-11-21'}),
  ]
}

describe('analysing text in linear time', () => {
  it('analyses a keyword-list description of 5,000 entries and a blank skill without hanging', () => {
    const {analyse} = descriptionAnalyser({profile: profile({skills: {go: 3, ' ': 1}}), options: {}, knowledge})
    // A quadratic analysis took about a second per such text: forty of them outlast the test's timeout.
    for (let text = 0; text < 40; text++) expect([...analyse('go, '.repeat(5000)).terms.values()]).toEqual(['nothing'])
  })
})
