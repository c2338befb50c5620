import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {fileBoard} from '../../src/sources/file.js'
import {tempDir} from '../helpers/cli.js'
import {fetchAll, testDeps} from '../helpers/source-fixtures.js'

let dir: ReturnType<typeof tempDir>

beforeEach(() => {
  dir = tempDir('jobagent-file-source-')
})

afterEach(() => dir.cleanup())

function write(name: string, content: string): void {
  writeFileSync(join(dir.path, name), content)
}

describe('file source', () => {
  it('reads a JSON array of jobs, relative to the working directory', async () => {
    write(
      'jobs.json',
      JSON.stringify([
        {
          title: ' Platform Engineer ',
          company: 'CI&amp;T',
          location: 'Lisbon',
          url: 'https://jobs.example.org/1',
          source: 'referral',
          posted_date: '2026-07-01 09:30:00',
        },
        {title: 'Designer', url: 'https://jobs.example.org/2', posted_date: null},
      ]),
    )
    const source = fileBoard.source({type: 'file', path: 'jobs.json'}, testDeps(), {cwd: dir.path})

    expect(source.name).toBe('file:jobs.json')
    expect(await fetchAll(source)).toMatchObject([
      {
        title: 'Platform Engineer',
        company: 'CI&T',
        location: 'Lisbon',
        url: 'https://jobs.example.org/1',
        source: 'referral',
        posted_date: '2026-07-01T09:30:00Z',
      },
      {
        title: 'Designer',
        company: '',
        location: '',
        url: 'https://jobs.example.org/2',
        source: 'file',
        posted_date: null,
      },
    ])
  })

  it('reads a CSV file with the JobResponse columns', async () => {
    write(
      'jobs.csv',
      '\ufefftitle,company,location,url,source,posted_date\r\n' +
        '"Engineer, Data",Acme,"Berlin, DE",https://jobs.example.org/3,,2026-07-02\r\n' +
        '\r\n',
    )
    const jobs = await fetchAll(
      fileBoard.source({type: 'file', path: 'jobs.csv', name: 'mine'}, testDeps(), {cwd: dir.path}),
    )

    expect(jobs).toMatchObject([
      {
        title: 'Engineer, Data',
        company: 'Acme',
        location: 'Berlin, DE',
        url: 'https://jobs.example.org/3',
        source: 'mine',
        posted_date: '2026-07-02',
      },
    ])
  })

  it('names the bad row of a CSV file', async () => {
    write('jobs.csv', 'title,url\nGood,https://jobs.example.org/1\nBad,\n')
    await expect(
      fetchAll(fileBoard.source({type: 'file', path: 'jobs.csv'}, testDeps(), {cwd: dir.path})),
    ).rejects.toThrow('jobs.csv line 3: url is required')
  })

  it('names the bad item of a JSON file and every problem in it', async () => {
    write(
      'jobs.json',
      JSON.stringify([
        {title: 'Fine', url: 'https://jobs.example.org/1'},
        {title: '', url: 'ftp://jobs.example.org/2', posted_date: 'last week'},
      ]),
    )
    await expect(
      fetchAll(fileBoard.source({type: 'file', path: 'jobs.json'}, testDeps(), {cwd: dir.path})),
    ).rejects.toThrow(
      'jobs.json item 2: title is required; url must be an absolute http(s) URL, got "ftp://jobs.example.org/2"; posted_date is not a date: "last week"',
    )
  })

  it('refuses JSON that is not an array, and a CSV without a url column', async () => {
    write('object.json', '{"jobs": []}')
    write('nourl.csv', 'title,company\nX,Y\n')
    await expect(
      fetchAll(fileBoard.source({type: 'file', path: 'object.json'}, testDeps(), {cwd: dir.path})),
    ).rejects.toThrow('object.json must hold a JSON array of jobs')
    await expect(
      fetchAll(fileBoard.source({type: 'file', path: 'nourl.csv'}, testDeps(), {cwd: dir.path})),
    ).rejects.toThrow('nourl.csv has no url column (header: title, company)')
  })

  it('says which file it cannot read', async () => {
    await expect(
      fetchAll(fileBoard.source({type: 'file', path: 'missing.json'}, testDeps(), {cwd: dir.path})),
    ).rejects.toThrow(/^cannot read missing.json: ENOENT/)
  })
})
