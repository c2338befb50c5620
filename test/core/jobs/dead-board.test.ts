import {describe, expect, it} from 'vitest'
import {deadBoardAnomaly} from '../../../src/core/jobs/dead-board.js'
import type {SourceOutcome} from '../../../src/core/jobs/search-result.js'

const empty = (name: string): SourceOutcome => ({name, ok: true, count: 0, error: null, duration_ms: 5})
const jobs = (name: string): SourceOutcome => ({name, ok: true, count: 7, error: null, duration_ms: 5})
const failed = (name: string, status?: number): SourceOutcome => ({
  name,
  ok: false,
  count: 0,
  error: status ? `HTTP ${status}` : 'timed out after 15 s',
  ...(status ? {status} : {}),
  duration_ms: 5,
})
const runWith = (...sources: SourceOutcome[]) => ({sources: sources.map((source) => ({...source, anomaly: null}))})

describe('deadBoardAnomaly', () => {
  it('reports a board that answered 404 or no jobs in each of its last three runs, this one included', () => {
    const history = [runWith(empty('greenhouse:acme')), runWith(failed('greenhouse:acme', 404))]
    expect(deadBoardAnomaly(failed('greenhouse:acme', 404), history, 3)).toEqual({
      code: 'dead',
      runs: 3,
      message:
        'no jobs or 404 in the last 3 runs; the board may be gone: check the slug, ' +
        'or remove the source with jobagent config set sources ...',
    })
  })

  it('skips runs the board was not part of, and reads ledger rows recorded before statuses were', () => {
    const history = [
      runWith(jobs('other')),
      runWith(empty('a')),
      runWith(jobs('other')),
      // An older row: no `status` key, not even on a failure.
      {sources: [{name: 'a', ok: true, count: 0, error: null, duration_ms: 3, anomaly: null}]},
    ]
    expect(deadBoardAnomaly(empty('a'), history, 3)).toMatchObject({code: 'dead', runs: 3})
  })

  it('says nothing before enough runs, after a run with jobs, or when a failure was not a 404', () => {
    expect(deadBoardAnomaly(empty('a'), [runWith(empty('a'))], 3)).toBeNull()
    expect(deadBoardAnomaly(empty('a'), [runWith(empty('a')), runWith(jobs('a')), runWith(empty('a'))], 3)).toBeNull()
    expect(deadBoardAnomaly(empty('a'), [runWith(failed('a', 503)), runWith(empty('a'))], 3)).toBeNull()
    expect(deadBoardAnomaly(failed('a'), [runWith(empty('a')), runWith(empty('a'))], 3)).toBeNull()
    expect(deadBoardAnomaly(jobs('a'), [runWith(empty('a')), runWith(empty('a'))], 3)).toBeNull()
  })

  it('counts every run of the chain, past the runs that make the board dead', () => {
    const history = [
      ...Array.from({length: 6}, () => runWith(failed('a', 404))),
      runWith(jobs('a')),
      runWith(empty('a')),
    ]
    expect(deadBoardAnomaly(failed('a', 404), history, 3)).toMatchObject({code: 'dead', runs: 7})
  })

  it('honours run.dead_after_runs, down to one run', () => {
    expect(deadBoardAnomaly(failed('a', 404), [], 1)?.message).toMatch(/^no jobs or 404 in the last run;/)
    expect(deadBoardAnomaly(empty('a'), [runWith(empty('a')), runWith(empty('a'))], 4)).toBeNull()
  })
})
