import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'

let home: {path: string; cleanup: () => void}
beforeEach(() => {
  home = tempDir('jobagent-e2e-verdicts-')
})
afterEach(() => home.cleanup())

const jobagent = (args: string[], input?: string) =>
  runCommandLine(args, {home: home.path, ...(input === undefined ? {} : {stdin: input})})

const POSTINGS = [
  ['ML Engineer, Ads Ranking', 'ads'],
  ['ML Engineer, Research', 'research'],
  ['ML Engineer, Ads Measurement', 'ads'],
  ['Machine Learning Engineer, Vision Research', 'research'],
  ['Barista', 'coffee'],
]

describe('a profile and verdicts from the CLI', () => {
  it('asks for the profile, ranks by it, and learns from likes and dismissals without a new run', async () => {
    const jobs = POSTINGS.map(([title, tag], n) => ({
      title,
      company: `Company ${n}`,
      location: 'Remote',
      url: `https://acme.example/jobs/${n}`,
      posted_date: '2026-11-20',
      tags: [tag],
    }))
    writeFileSync(join(home.path, 'jobs.json'), JSON.stringify(jobs))
    const config = {sources: [{type: 'file', path: join(home.path, 'jobs.json')}]}
    writeFileSync(join(home.path, 'config.json'), JSON.stringify(config), {mode: 0o600})

    // Off a terminal, without --ask, the empty profile is shown with the way to write one.
    const shown = await jobagent(['profile'])
    expect(shown.code).toBe(0)
    expect(shown.stdout).toMatch(/\nNo roles or skills yet: run jobagent profile on a terminal, or answer .* --ask\n$/)
    // The guided profile: answers on stdin, one per question. From a pipe an unreadable answer is refused (the next
    // line was meant for the next question) and nothing is written.
    const refused = await jobagent(['profile', '--ask'], 'ml engineer\npython:5\n\n\nanywhere\nremote\n')
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('Error: the weight of python must be 1, 2 or 3, got 5')
    expect(JSON.parse(readFileSync(join(home.path, 'config.json'), 'utf8')).profile).toBeUndefined()
    const asked = await jobagent(['profile', '--ask'], 'ml engineer\npython:3\n\n\nanywhere\nremote\n')
    expect(asked.code).toBe(0)
    const written = JSON.parse(readFileSync(join(home.path, 'config.json'), 'utf8'))
    expect(written.profile).toEqual({
      roles: ['ml engineer'],
      skills: {python: 3},
      avoid: [],
      seniority: 'any',
      home: 'anywhere',
      locations: ['remote'],
    })
    expect(written.sources).toEqual(config.sources)

    expect((await jobagent(['run', '--quiet'])).code).toBe(0)
    const listed = async (args: string[] = []) => JSON.parse((await jobagent(['jobs', '--json', ...args])).stdout)
    const before = await listed()
    expect(before.at(-1).title).toBe('Barista')
    expect(before.at(-1).score).toBe(0)
    const id = (title: string) => before.find((job: {title: string}) => job.title === title).id

    const disliked = await jobagent(['jobs', String(id('ML Engineer, Ads Ranking')), '--dismiss', '--reason', 'no ads'])
    expect(disliked.code).toBe(0)
    expect(disliked.stdout).toContain('Dismissed job')
    expect(disliked.stdout).toContain('--undo')
    expect((await jobagent(['jobs', String(id('ML Engineer, Research')), '--like'])).code).toBe(0)

    const after = await listed()
    expect(after.map((job: {title: string}) => job.title)).not.toContain('ML Engineer, Ads Ranking')
    expect(after[0].title).toMatch(/Research/)
    expect(after.find((job: {title: string}) => job.title === 'ML Engineer, Ads Measurement').reasons).toContainEqual(
      expect.stringMatching(/^- like a job you dismissed: ML Engineer, Ads Ranking at .+ \(.*\bads\b.*\) -0\.\d\d$/),
    )
    const dismissed = await jobagent(['jobs', '--dismissed'])
    expect(dismissed.stdout).toContain('ML Engineer, Ads Ranking')

    const undone = await jobagent(['jobs', String(id('ML Engineer, Ads Ranking')), '--undo'])
    expect(undone.stdout).toContain('Took back the dismissal')
    expect((await jobagent(['jobs', String(id('ML Engineer, Ads Ranking')), '--undo'])).code).toBe(1)
    const forgot = await jobagent(['profile', '--forget-verdicts', '--yes'])
    expect(forgot.stdout).toContain('Forgot 1 like(s) and dismissal(s)')
    expect((await listed()).map((job: {title: string}) => job.title)).toEqual(
      before.map((job: {title: string}) => job.title),
    )

    const usage = await jobagent(['jobs', '--dismiss'])
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('Error: --dismiss goes with the id of a job')
    expect(usage.stderr).toContain('Hint: ')
    // A mistake oclif's own parser finds is said the same way.
    const range = await jobagent(['jobs', '--min-score', '101'])
    expect(range.code).toBe(2)
    expect(range.stderr).toMatch(/^Error: .*--min-score.*100/m)
    expect(range.stderr).toContain('Hint: jobagent jobs --help shows what it takes')
    expect(range.stderr).not.toContain('›')
    const exclusive = await jobagent(['profile', '--ask', '--show'])
    expect(exclusive.code).toBe(2)
    expect(exclusive.stderr).toMatch(/^Error: .*--show/m)
  })
})
