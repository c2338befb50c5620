import {describe, expect, it} from 'vitest'
import * as z from '../../../src/core/zod-mini.js'
import {recordColumns} from '../../../src/storage/sqlite/record-columns.js'

const schema = z.object({
  id: z.int(),
  name: z.string(),
  remote: z.nullable(z.boolean()),
  tags: z.array(z.string()),
  pay: z.nullable(z.object({min: z.number()})),
  status: z.optional(z.int()),
})

describe('record columns', () => {
  const columns = recordColumns(schema.shape)

  it('hold booleans as 0 or 1 and lists and objects as JSON, the rest and null as they are', () => {
    const record = {id: 1, name: 'Ann', remote: true, tags: ['a'], pay: null, status: 3}
    const row = columns.toRow(record)
    expect(row).toEqual({id: 1, name: 'Ann', remote: 1, tags: '["a"]', pay: null, status: 3})
    expect(columns.fromRow<typeof record>(row)).toEqual(record)
    expect(columns.toRow({remote: false, pay: {min: 5}})).toEqual({remote: 0, pay: '{"min":5}'})
  })

  it("read only the columns a statement read, and pass the store's own columns as they are", () => {
    expect(columns.fromRow<{tags: string[]; url_key: string}>({tags: '[]', url_key: 'k'})).toEqual({
      tags: [],
      url_key: 'k',
    })
  })

  it('refuse a field no column holds yet, naming it', () => {
    expect(() => recordColumns(z.object({at: z.union([z.string(), z.int()])}).shape)).toThrow(
      'no SQLite column holds the field at of type union',
    )
  })
})
