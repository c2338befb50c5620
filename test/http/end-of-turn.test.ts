import {setImmediate as nextTurn} from 'node:timers/promises'
import {describe, expect, it} from 'vitest'
import {endOfTurnWriter} from '../../src/http/end-of-turn.js'

describe('endOfTurnWriter', () => {
  it('runs the writes of one turn after it, together and in the order they were queued', async () => {
    const written: string[] = []
    const write = endOfTurnWriter((error) => written.push(`error ${String(error)}`))
    write(() => written.push('a'))
    await Promise.resolve()
    write(() => written.push('b'))
    expect(written).toEqual([])
    await nextTurn()
    expect(written).toEqual(['a', 'b'])
  })

  it('starts a new batch for writes queued in a later turn', async () => {
    const batches: string[][] = [[]]
    const write = endOfTurnWriter(() => {})
    write(() => batches.at(-1)?.push('first'))
    await nextTurn()
    batches.push([])
    write(() => batches.at(-1)?.push('second'))
    await nextTurn()
    expect(batches).toEqual([['first'], ['second']])
  })

  it('reports a write that throws and still runs the ones after it', async () => {
    const written: string[] = []
    const errors: unknown[] = []
    const write = endOfTurnWriter((error) => errors.push(error))
    write(() => written.push('before'))
    write(() => {
      throw new Error('socket gone')
    })
    write(() => written.push('after'))
    await nextTurn()
    expect(written).toEqual(['before', 'after'])
    expect(errors).toEqual([new Error('socket gone')])
  })
})
