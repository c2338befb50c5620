import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {ConflictError, NotFoundError, ValidationError} from '../../../src/core/errors.js'
import {application, memoryTracker, type Tracker} from '../../helpers/tracker.js'

let tracker: Tracker

beforeEach(() => {
  tracker = memoryTracker()
})
afterEach(() => {
  tracker.db.close()
})

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => new Error('resolved'),
    (error: unknown) => error,
  )

describe('short ids', () => {
  it('number applications from 1, find them by 12 or #12, and never give a purged id to another', async () => {
    const first = await tracker.service.record(application({url: 'https://example.org/jobs/1'}))
    const second = await tracker.service.record(application({url: 'https://example.org/jobs/2'}))
    expect([first.id, second.id]).toEqual([1, 2])
    expect((await tracker.service.find('2')).url).toBe('https://example.org/jobs/2')
    expect((await tracker.service.find(' #1 ')).url).toBe('https://example.org/jobs/1')

    await tracker.service.purge('2')
    const third = await tracker.service.record(application({url: 'https://example.org/jobs/3'}))
    expect(third.id).toBe(3)
    const missing = await rejection(tracker.service.find('2'))
    expect(missing).toBeInstanceOf(NotFoundError)
    expect((missing as NotFoundError).message).toBe('no application #2')
    expect((missing as NotFoundError).hint).toBe('list tracked applications with their ids: jobagent status')
  })
})

describe('one application per job, whatever the link', () => {
  it('refuses a link with tracking parameters of a tracked job, naming the application, and finds it by that link', async () => {
    await tracker.service.record(application({url: 'https://example.org/jobs/7'}))
    const error = await rejection(
      tracker.service.record(application({url: 'https://example.org/jobs/7?utm_source=newsletter'})),
    )
    expect(error).toBeInstanceOf(ConflictError)
    expect((error as ConflictError).message).toBe('already tracked as #1 https://example.org/jobs/7 (status: applied)')
    expect((await tracker.service.find('https://example.org/jobs/7?utm_source=x')).id).toBe(1)
    await tracker.service.changeStatus('https://EXAMPLE.org/jobs/7/?utm_medium=mail', 'interviewing')
    expect(await tracker.service.counts()).toEqual({total: 1, applied: 1, pending: 0})
    expect((await tracker.service.stats()).total).toBe(1)
  })

  it('takes an import row under another link of a tracked job as that application', async () => {
    await tracker.service.record(application({url: 'https://example.org/jobs/7', status: 'saved'}))
    const row = {...application({url: 'https://example.org/jobs/7?ref=feed'}), status: 'applied', notes: 'sent'}
    expect(await tracker.service.import([{row: 1, value: row}], {update: false})).toMatchObject({
      inserted: 0,
      unchanged: ['https://example.org/jobs/7?ref=feed'],
    })
    await tracker.service.import([{row: 1, value: row}], {update: true})
    const {application: updated, history} = await tracker.service.get('1')
    expect(updated).toMatchObject({url: 'https://example.org/jobs/7', status: 'applied', notes: 'sent'})
    expect(history.map((entry) => entry.change)).toEqual(['status'])
    const twice = await rejection(
      tracker.service.import(
        [
          {row: 1, value: application({url: 'https://example.org/jobs/8'})},
          {row: 2, value: application({url: 'https://example.org/jobs/8?utm_campaign=x'})},
        ],
        {update: false},
      ),
    )
    expect((twice as ValidationError).details).toEqual([
      {row: 2, field: 'url', message: 'duplicate of row 1 (https://example.org/jobs/8?utm_campaign=x)'},
    ])
  })
})

describe('edit', () => {
  it('changes the fields given, keeps each old and new value in the history, and the history follows a new URL', async () => {
    await tracker.service.record(application({url: 'https://example.org/jobs/1', notes: 'mine'}))
    await tracker.service.changeStatus('1', 'interviewing', 'call')
    const {previous, current} = await tracker.service.edit('1', {
      title: 'Staff Engineer',
      url: 'https://example.org/jobs/1-staff',
      salary_expected: '€80k',
      location: '',
    })
    expect(previous.title).toBe('Backend Engineer')
    expect(current).toMatchObject({
      id: 1,
      title: 'Staff Engineer',
      url: 'https://example.org/jobs/1-staff',
      location: '',
      salary_expected: '€80k',
      status: 'interviewing',
      notes: 'call',
    })
    const {history} = await tracker.service.get('https://example.org/jobs/1-staff')
    expect(history.map((entry) => entry.change)).toEqual(['status', 'edit'])
    expect(history[1]?.details).toEqual({
      title: {from: 'Backend Engineer', to: 'Staff Engineer'},
      location: {from: 'Berlin', to: ''},
      url: {from: 'https://example.org/jobs/1', to: 'https://example.org/jobs/1-staff'},
      salary_expected: {from: '', to: '€80k'},
    })
    expect(await rejection(tracker.service.find('https://example.org/jobs/1'))).toBeInstanceOf(NotFoundError)
  })

  it('refuses a URL tracked as another application, an unknown field, an empty title and an empty edit', async () => {
    await tracker.service.record(application({url: 'https://example.org/jobs/1'}))
    await tracker.service.record(application({url: 'https://example.org/jobs/2'}))
    const taken = await rejection(tracker.service.edit('2', {url: 'https://example.org/jobs/1?utm_source=a'}))
    expect(taken).toBeInstanceOf(ConflictError)
    expect((taken as ConflictError).message).toBe('already tracked as #1 https://example.org/jobs/1 (status: applied)')
    const unknown = await rejection(tracker.service.edit('2', {status: 'offer'}))
    expect((unknown as ValidationError).message).toBe('invalid edit: unknown field(s): status')
    const empty = await rejection(tracker.service.edit('2', {title: '  '}))
    expect((empty as ValidationError).message).toBe('invalid edit: title must not be empty')
    const nothing = await rejection(tracker.service.edit('2', {}))
    expect((nothing as ValidationError).message).toBe('nothing to change')
    expect((await tracker.service.get('2')).history).toEqual([])
  })

  it('records nothing when the values given are the ones held', async () => {
    await tracker.service.record(application())
    const update = await tracker.service.edit('1', {title: 'Backend Engineer'})
    expect(update.current).toEqual(update.previous)
    expect((await tracker.service.get('1')).history).toEqual([])
  })
})

describe('remove', () => {
  it('takes an application out of lists, counts, stats and the run, keeps it findable, and --undo brings it back', async () => {
    await tracker.service.record(application({url: 'https://example.org/jobs/1'}))
    await tracker.service.record(application({url: 'https://example.org/jobs/2', status: 'saved'}))
    const {current} = await tracker.service.remove('1')
    expect(current.removed_at).toMatch(/^\d{4}-/)
    expect((await tracker.service.list()).applications.map((one) => one.id)).toEqual([2])
    expect(await tracker.service.counts()).toEqual({total: 1, applied: 0, pending: 1})
    expect((await tracker.service.stats()).total).toBe(1)
    expect(await tracker.store.appliedUrlKeys()).toEqual(new Set())
    expect((await tracker.store.trackedOf(['https://example.org/jobs/1'])).size).toBe(0)
    expect((await tracker.service.find('1')).removed_at).not.toBeNull()

    const again = await rejection(tracker.service.record(application({url: 'https://example.org/jobs/1'})))
    expect((again as ConflictError).message).toBe('already tracked as #1 https://example.org/jobs/1 (removed)')
    expect((again as ConflictError).hint).toBe('bring it back with: jobagent remove 1 --undo')

    await tracker.service.remove('1', false)
    expect(await tracker.service.counts()).toEqual({total: 2, applied: 1, pending: 1})
    const {history} = await tracker.service.get('1')
    expect(history.map((entry) => entry.change)).toEqual(['removed', 'restored'])
  })

  it('purges an application with its history', async () => {
    await tracker.service.record(application())
    await tracker.service.changeStatus('1', 'offer')
    await tracker.service.purge('1')
    expect(tracker.db.prepare('SELECT count(*) FROM status_history').pluck().get()).toBe(0)
    expect(await tracker.service.counts()).toEqual({total: 0, applied: 0, pending: 0})
  })
})

describe('list filters', () => {
  it('find text in the title, company or notes, a source, and recent applications', async () => {
    await tracker.service.record(application({url: 'https://example.org/1', title: 'Go Developer', source: 'linkedin'}))
    await tracker.service.record(application({url: 'https://example.org/2', company: 'Initech', notes: 'Ask ANN 100%'}))
    await tracker.service.record(application({url: 'https://example.org/3', source: 'LinkedIn'}))
    const ids = async (filter: Record<string, string>) =>
      (await tracker.service.list(filter)).applications.map((one) => one.id).sort()
    expect(await ids({search: 'go dev'})).toEqual([1])
    expect(await ids({search: 'initech'})).toEqual([2])
    expect(await ids({search: 'ann 100%'})).toEqual([2])
    expect(await ids({search: '%'})).toEqual([2])
    expect(await ids({source: 'linkedin'})).toEqual([1, 3])
    expect(await ids({since: '1d', source: 'linkedin', search: 'go'})).toEqual([1])
    expect((await tracker.service.page({search: 'acme', limit: 1})).total).toBe(2)
    expect(await rejection(tracker.service.list({since: 'yesterday'}))).toBeInstanceOf(ValidationError)
  })
})
