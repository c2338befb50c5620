import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {hasSharedFixtures, SHARED_SOURCE_FIXTURES, SOURCE_FIXTURES} from '../helpers/source-fixtures.js'

if (!hasSharedFixtures) {
  console.warn(`skipping the comparison with the shared board captures: ${SHARED_SOURCE_FIXTURES} is not here`)
}

describe('board captures', () => {
  it.skipIf(!hasSharedFixtures)('are byte-for-byte copies of the shared real captures', () => {
    for (const name of readdirSync(SHARED_SOURCE_FIXTURES)) {
      const copy = readFileSync(join(SOURCE_FIXTURES, name))
      expect(copy.equals(readFileSync(join(SHARED_SOURCE_FIXTURES, name))), name).toBe(true)
    }
  })
})
