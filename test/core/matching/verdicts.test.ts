import {describe, expect, it} from 'vitest'
import {type JudgedJob, VerdictModel} from '../../../src/core/matching/verdicts.js'

const listed = (title: string, company = 'Acme', tags: string[] = []) => ({title, company, tags})
const verdict = (verdict: JudgedJob['verdict'], title: string, company = 'Acme', tags: string[] = []): JudgedJob => ({
  verdict,
  title,
  company,
  tags,
})
/** Jobs most of which are engineers, so that "engineer" is common among them and "golang" rare. */
const pool = [
  listed('Golang Developer', 'Initech'),
  listed('Python Engineer', 'Globex'),
  listed('Frontend Engineer', 'Umbrella'),
  listed('Data Engineer', 'Hooli'),
  listed('QA Engineer', 'Stark'),
  listed('Mobile Engineer', 'Wayne'),
  listed('Support Engineer', 'Wonka'),
]

describe('verdicts', () => {
  it('lifts a job the same as one liked by the whole bound, and no number of likes lifts it further', () => {
    const liked = verdict('like', 'Golang Kubernetes Engineer', 'Arango', ['golang'])
    const job = listed('Golang Kubernetes Engineer', 'Arango', ['golang'])
    for (const likes of [1, 5]) {
      const model = new VerdictModel(Array.from({length: likes}, () => liked))
      expect(model.among([job, ...pool]).judge(job).change).toBeCloseTo(0.5, 10)
    }
  })

  it('sinks a job the same as one dismissed by 0.3, less than a like lifts: a dismissal says "not this", a like "more of this"', () => {
    const model = new VerdictModel([verdict('dismiss', 'Golang Kubernetes Engineer', 'Arango')])
    const job = listed('Golang Kubernetes Engineer', 'Arango')
    expect(model.among([job, ...pool]).judge(job).change).toBeCloseTo(-0.3, 10)
  })

  it('weighs a word by how rare it is among the jobs listed: a shared "golang" moves more than a shared "engineer"', () => {
    const model = new VerdictModel([verdict('like', 'Golang Engineer', 'Arango')])
    const judge = model.among(pool)
    const golang = judge.judge(pool[0]!)
    const engineer = judge.judge(pool[1]!)
    expect(golang.change).toBeGreaterThan(2 * engineer.change)
    expect(golang.liked?.terms).toContain('golang')
    expect(golang.liked).toMatchObject({title: 'Golang Engineer', company: 'Arango'})
    expect(golang.liked?.change).toBeCloseTo(golang.change, 10)
  })

  it('lifts another job of the employer liked above the same job elsewhere, and says so', () => {
    const model = new VerdictModel([verdict('like', 'Account Executive', 'Toptal')])
    const there = listed('Client Advisor', 'Toptal')
    const elsewhere = listed('Client Advisor', 'Initech')
    const judge = model.among([there, elsewhere, ...pool])
    expect(judge.judge(there).change).toBeGreaterThan(0)
    expect(judge.judge(elsewhere).change).toBe(0)
    expect(judge.judge(there).liked?.terms).toEqual(['Toptal'])
  })

  it("sinks a job that shares a dismissed job's distinctive word further than one that shares only its role", () => {
    const model = new VerdictModel([verdict('dismiss', 'Machine Learning Engineer, Ads', 'Acme', ['pytorch', 'ads'])])
    const research = listed('Machine Learning Engineer, Research', 'Globex', ['pytorch'])
    const ads = listed('Machine Learning Engineer, Ads Ranking', 'Globex', ['ads'])
    const judge = model.among([research, ads, ...pool])
    expect(judge.judge(ads).change).toBeLessThan(judge.judge(research).change)
    expect(judge.judge(ads).dismissed?.terms[0]).toBe('ads')
    expect(judge.judge(ads).liked).toBeNull()
  })

  it('lifts a job of the liked kind of work above one of the dismissed kind when both share words with each', () => {
    const model = new VerdictModel([
      verdict('like', 'Machine Learning Engineer', 'Initech'),
      verdict('dismiss', 'Data Analyst', 'Initech'),
    ])
    const engineer = listed('Senior Machine Learning Engineer', 'Globex')
    const analyst = listed('Senior Data Analyst', 'Globex')
    const judge = model.among([engineer, analyst, ...pool])
    expect(judge.judge(engineer).change).toBeGreaterThan(0)
    expect(judge.judge(analyst).change).toBeLessThan(0)
  })

  it('names only what tells the verdicts apart: a word the nearest liked and dismissed jobs share is no reason', () => {
    const model = new VerdictModel([
      verdict('like', 'Customer Success Manager', 'Zendesk'),
      verdict('dismiss', 'Customer Success Engineer, WordPress', 'Automattic'),
    ])
    const job = listed('Customer Success Manager', 'Spaceback')
    const judged = model.among([job, ...pool]).judge(job)
    expect(judged.change).toBeGreaterThan(0)
    expect(judged.liked?.terms).toContain('manager')
    expect(judged.liked?.terms).not.toContain('customer')
    expect(judged.dismissed?.terms ?? []).toEqual([])
  })
})
