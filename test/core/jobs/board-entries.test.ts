import {describe, expect, it} from 'vitest'
import {addBoards, boardEntry, followBoards} from '../../../src/core/jobs/board-entries.js'
import {boardHealth} from '../../../src/core/jobs/board-health.js'
import type {RunRecord} from '../../../src/core/jobs/job-store.js'
import type {SourceConfig} from '../../../src/core/jobs/source-config.js'

describe('found boards as sources entries', () => {
  it('gives the entry of each type in its list', () => {
    expect(boardEntry({type: 'workable', slug: 'acme'})).toEqual({type: 'workable', accounts: ['acme']})
    expect(boardEntry({type: 'lever', slug: 'acme', region: 'eu', company: 'Acme'})).toEqual({
      type: 'lever',
      region: 'eu',
      sites: [{slug: 'acme', company: 'Acme'}],
    })
    expect(boardEntry({type: 'workday', slug: 'acme.wd5/Careers'})).toEqual({
      type: 'workday',
      sites: ['acme.wd5/Careers'],
    })
  })

  it('adds to the first enabled entry of the type without a url of its own, else appends an entry', () => {
    const sources: SourceConfig[] = [
      {type: 'greenhouse', boards: ['off'], enabled: false},
      {type: 'greenhouse', boards: ['mirrored'], url: 'http://mirror.example'},
      {type: 'greenhouse', name: 'gh', boards: [{slug: 'gitlab', company: 'GitLab'}]},
    ]
    const result = addBoards(sources, [
      {type: 'greenhouse', slug: 'acme'},
      {type: 'recruitee', slug: 'acme'},
      {type: 'recruitee', slug: 'globex'},
    ])
    expect(result.sources).toEqual([
      sources[0],
      sources[1],
      {type: 'greenhouse', name: 'gh', boards: [{slug: 'gitlab', company: 'GitLab'}, 'acme']},
      {type: 'recruitee', companies: ['acme', 'globex']},
    ])
    expect(result.added).toEqual(['gh:acme', 'recruitee:acme', 'recruitee:globex'])
    expect(sources[2]?.boards).toEqual([{slug: 'gitlab', company: 'GitLab'}])
  })

  it('leaves a board that any entry of its type and region lists, enabled or not', () => {
    const sources: SourceConfig[] = [
      {type: 'greenhouse', boards: ['off'], enabled: false},
      {type: 'lever', sites: ['acme']},
    ]
    const result = addBoards(sources, [
      {type: 'greenhouse', slug: 'off'},
      {type: 'lever', slug: 'acme', region: 'eu'},
      {type: 'workday', slug: 'acme.wd5/Careers'},
    ])
    expect(result.present).toEqual(['greenhouse:off'])
    expect(result.added).toEqual(['lever:acme', 'workday:acme.wd5/Careers'])
    expect(result.sources.slice(2)).toEqual([
      {type: 'lever', region: 'eu', sites: ['acme']},
      {type: 'workday', sites: ['acme.wd5/Careers']},
    ])
  })
})

describe('board health', () => {
  const run = (id: number, sources: RunRecord['sources']): RunRecord => ({
    id,
    started_at: `2026-11-0${id}T08:00:00.000`,
    finished_at: `2026-11-0${id}T08:00:05.000`,
    status: 'ok',
    mode: 'production',
    jobs_found: 0,
    new_jobs: 0,
    notified: 0,
    sources,
    error: null,
  })
  const outcome = (name: string, count: number) => ({name, ok: true, count, error: null, duration_ms: 5, anomaly: null})

  it('takes each source from the newest run that included it, and null for one no run included', () => {
    const runs = [run(3, [outcome('remotive', 7)]), run(2, [outcome('greenhouse:a', 2), outcome('remotive', 1)])]
    const health = boardHealth([{type: 'remotive'}, {type: 'greenhouse', boards: ['a', 'b']}], runs)
    expect(
      health.map((board) => [board.name, board.slug, board.last?.run_id ?? null, board.last?.outcome.count]),
    ).toEqual([
      ['remotive', null, 3, 7],
      ['greenhouse:a', 'a', 2, 2],
      ['greenhouse:b', 'b', null, undefined],
    ])
  })
})

describe('boards a sweep follows', () => {
  it('go to a file of boards per ATS and region, named by one boards_file entry each, never twice', () => {
    const sources: SourceConfig[] = [
      {type: 'greenhouse', boards: ['stripe']},
      {type: 'greenhouse', boards_file: 'followed-greenhouse.txt'},
    ]
    const inFile = new Map([['followed-greenhouse.txt', new Set(['gitlab'])]])
    const followed = followBoards(
      sources,
      [
        {type: 'greenhouse', slug: 'stripe'},
        {type: 'greenhouse', slug: 'gitlab'},
        {type: 'greenhouse', slug: 'notion', company: 'Notion'},
        {type: 'greenhouse', slug: 'notion'},
        {type: 'lever', slug: 'acme', region: 'eu'},
      ],
      inFile,
    )
    // Named inline, in the file, or earlier in the same sweep: present.
    expect(followed.present).toEqual(['greenhouse:stripe', 'greenhouse:gitlab', 'greenhouse:notion'])
    expect(followed.added).toEqual(['greenhouse:notion', 'lever:acme'])
    expect([...followed.appends]).toEqual([
      ['followed-greenhouse.txt', [{type: 'greenhouse', slug: 'notion', company: 'Notion'}]],
      ['followed-lever-eu.txt', [{type: 'lever', slug: 'acme', region: 'eu'}]],
    ])
    // The greenhouse file has its entry; Lever's EU one gets one, in its region.
    expect(followed.sources).toEqual([...sources, {type: 'lever', region: 'eu', boards_file: 'followed-lever-eu.txt'}])
  })

  it('gives a new followed entry the base URL its ATS was swept at', () => {
    const followed = followBoards([], [{type: 'ashby', slug: 'phil'}], new Map(), {ashby: 'http://127.0.0.1:8000'})
    expect(followed.sources).toEqual([{type: 'ashby', boards_file: 'followed-ashby.txt', url: 'http://127.0.0.1:8000'}])
    expect(followBoards([], [{type: 'ashby', slug: 'phil'}], new Map()).sources).toEqual([
      {type: 'ashby', boards_file: 'followed-ashby.txt'},
    ])
  })
})
