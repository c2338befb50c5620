import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {tempDir} from '../helpers/cli.js'
import {runCommandLine} from '../helpers/run-command.js'

let home: {path: string; cleanup: () => void}
beforeEach(() => {
  home = tempDir('jobagent-e2e-lifecycle-')
})
afterEach(() => home.cleanup())

const jobagent = (args: string[]) => runCommandLine(args, {home: home.path})

/** The file board lists these postings now. */
function board(postings: {title: string; location: string; n: number}[]) {
  const jobs = postings.map(({title, location, n}) => ({
    title,
    company: 'Acme',
    location,
    url: `https://acme.example/jobs/${n}`,
    posted_date: '2026-11-20',
  }))
  writeFileSync(join(home.path, 'jobs.json'), JSON.stringify(jobs))
}

describe('closed and reposted jobs from the CLI', () => {
  it('lists one job per role, closes what the board dropped, and says so in jobs, status and --json', async () => {
    const config = {sources: [{type: 'file', path: join(home.path, 'jobs.json')}], run: {closed_after_runs: 1}}
    writeFileSync(join(home.path, 'config.json'), JSON.stringify(config), {mode: 0o600})
    board([
      {title: 'Backend Engineer', location: 'Berlin', n: 1},
      {title: 'Backend Engineer', location: 'London', n: 2},
      {title: 'Frontend Engineer', location: 'Remote', n: 3},
    ])
    expect((await jobagent(['run'])).code).toBe(0)
    const listed = JSON.parse((await jobagent(['jobs', '--json'])).stdout)
    expect(listed.map((job: {location: string}) => job.location).sort()).toEqual(['Berlin; London', 'Remote'])
    expect(
      (await jobagent(['apply', String(listed.find((j: {title: string}) => j.title.startsWith('F')).id)])).code,
    ).toBe(0)

    board([{title: 'Backend Engineer', location: 'Berlin', n: 1}])
    const second = await jobagent(['run', '--json'])
    expect(second.code).toBe(0)
    expect(JSON.parse(second.stdout).lifecycle).toEqual({closed: 1, reopened: 0, reposted: 0, postings_closed: 1})
    expect(second.stderr).toMatch(/\| INFO \| jobagent\.run \| Lifecycle: 1 closed \(no longer listed\), 1 tracked/)

    const open = await jobagent(['jobs'])
    expect(open.stdout).toContain('Backend Engineer')
    expect(open.stdout).not.toContain('Frontend Engineer')
    const closed = await jobagent(['jobs', '--closed'])
    expect(closed.stdout).toMatch(/Frontend Engineer .* applied\s+closed/)
    expect(closed.stdout).not.toContain('Backend Engineer')

    const status = await jobagent(['status', 'https://acme.example/jobs/3'])
    expect(status.stdout).toMatch(/posting\s+closed today \(\d{4}-\d\d-\d\d\): the board no longer lists it/)
    const statusJson = JSON.parse((await jobagent(['status', 'https://acme.example/jobs/3', '--json'])).stdout)
    expect(statusJson.posting_closed_at).toMatch(/^\d{4}-\d\d-\d\dT/)
    const both = await jobagent(['jobs', '--closed', '--all'])
    expect(both.code).toBe(2)
  })
})
