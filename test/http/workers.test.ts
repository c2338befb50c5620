import {describe, expect, it} from 'vitest'
import {restartDelay} from '../../src/http/workers.js'

describe('restartDelay', () => {
  it('waits 1 s before the first replacement and doubles the wait for each worker that dies soon after it started', () => {
    const waits: number[] = []
    let last: number | undefined
    for (let n = 0; n < 8; n++) {
      last = restartDelay(last, 500)
      waits.push(last)
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000])
  })

  it('starts again from 1 s after a worker that lived 30 s, however long the last wait was', () => {
    expect(restartDelay(30_000, 30_000)).toBe(1000)
    expect(restartDelay(16_000, 29_999)).toBe(30_000)
    expect(restartDelay(undefined, 60_000)).toBe(1000)
  })
})
