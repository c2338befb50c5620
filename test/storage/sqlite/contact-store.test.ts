import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {ValidationError} from '../../../src/core/errors.js'
import {tempDir} from '../../helpers/cli.js'
import {application, memoryTracker, type Tracker} from '../../helpers/tracker.js'

let dir: ReturnType<typeof tempDir>
let tracker: Tracker

beforeEach(async () => {
  dir = tempDir()
  tracker = memoryTracker(join(dir.path, 'jobagent.db'))
  await tracker.service.record(application())
})

afterEach(() => {
  tracker.db.close()
  dir.cleanup()
})

const contactCount = () => tracker.db.prepare('SELECT count(*) FROM contacts').pluck().get()

describe('contacts in jobagent.db', () => {
  it('adds a contact with its history entry, lists contacts oldest first, and finds them by application', async () => {
    const ann = await tracker.contacts.add('1', {name: ' Ann Lee ', role: 'recruiter', email: 'ann@example.org'})
    expect(ann).toEqual({
      id: 1,
      application_id: 1,
      name: 'Ann Lee',
      role: 'recruiter',
      reach: 'ann@example.org',
      notes: '',
      created_at: expect.stringMatching(/^2026-11-22T/),
    })
    await tracker.contacts.add('https://example.org/jobs/1', {name: 'Bo', reach: 'https://example.org/bo'})
    expect((await tracker.contacts.list('#1')).map((contact) => contact.name)).toEqual(['Ann Lee', 'Bo'])
    const history = await tracker.service.get('1')
    expect(history.history.map((entry) => entry.details)).toEqual([
      {added: 'Ann Lee (recruiter) <ann@example.org>'},
      {added: 'Bo <https://example.org/bo>'},
    ])
    const [exported] = await tracker.contacts.withContacts([history.application])
    expect(exported?.contacts).toEqual([
      {name: 'Ann Lee', role: 'recruiter', reach: 'ann@example.org', notes: ''},
      {name: 'Bo', role: '', reach: 'https://example.org/bo', notes: ''},
    ])
  })

  it('writes nothing for an invalid contact, and names each field it refuses', async () => {
    const refused = await tracker.contacts
      .add('1', {name: '', email: 'nope', notes: 'ok\nstill ok', extra: 1})
      .catch((error: unknown) => error as ValidationError)
    expect(refused).toBeInstanceOf(ValidationError)
    expect((refused as ValidationError).details?.map((detail) => detail.field)).toEqual(['name', 'email', undefined])
    expect(contactCount()).toBe(0)
    expect(await tracker.service.get('1')).toMatchObject({history: []})
  })

  it('removes one contact of its application only, and the contacts go with a purged application', async () => {
    await tracker.service.record(application({url: 'https://example.org/jobs/2'}))
    const ann = await tracker.contacts.add('1', {name: 'Ann'})
    await tracker.contacts.add('2', {name: 'Bo'})
    await expect(tracker.contacts.remove('2', ann.id)).rejects.toThrow('#2 has no contact 1')
    expect((await tracker.contacts.remove('1', ann.id)).name).toBe('Ann')
    expect((await tracker.service.get('1')).history.at(-1)).toMatchObject({
      change: 'contact',
      details: {removed: 'Ann'},
    })
    expect(contactCount()).toBe(1)
    await tracker.service.purge('2')
    expect(contactCount()).toBe(0)
  })
})
