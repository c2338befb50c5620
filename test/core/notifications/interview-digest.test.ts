import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {ApplicationService} from '../../../src/core/applications/application-service.js'
import {FollowUps} from '../../../src/core/applications/follow-ups.js'
import {InterviewService} from '../../../src/core/applications/interviews.js'
import {buildDigest, renderDigest, TEXT_STYLE} from '../../../src/core/notifications/digest.js'
import {openSqlite, type SqliteDatabase} from '../../../src/storage/sqlite/database.js'
import {SqliteApplicationStore} from '../../../src/storage/sqlite/sqlite-application-store.js'
import {SqliteInterviewStore} from '../../../src/storage/sqlite/sqlite-interview-store.js'
import {TRACKER_MIGRATIONS} from '../../../src/storage/sqlite/tracker-migrations.js'
import {tempDir} from '../../helpers/cli.js'
import {application, contactsOf} from '../../helpers/tracker.js'

let dir: ReturnType<typeof tempDir>
let db: SqliteDatabase
let now: Date

beforeEach(() => {
  dir = tempDir('jobagent-interview-digest-')
  db = openSqlite(join(dir.path, 'jobagent.db'), {migrations: TRACKER_MIGRATIONS})
  now = new Date('2026-11-28T09:00:00Z')
})

afterEach(() => {
  db.close()
  dir.cleanup()
})

/** The tracker's services over the test's database, on its clock, in Europe/Berlin. */
function trackerServices() {
  const file = join(dir.path, 'jobagent.db')
  const clock = {now: () => now}
  const applications = new SqliteApplicationStore(db, file)
  const tracker = new ApplicationService(applications, clock)
  const interviews = new InterviewService(
    new SqliteInterviewStore(db, file, applications),
    tracker,
    contactsOf(db, file, applications, tracker),
    {timeZone: 'Europe/Berlin', clock},
  )
  return {clock, applications, tracker, interviews}
}

describe('the run digest and interviews', () => {
  it('names the interviews of the next 48 hours and the applications waiting after one, below the jobs', async () => {
    const {clock, applications, tracker, interviews} = trackerServices()
    await tracker.record(application({url: 'https://example.org/jobs/1', title: 'Backend Engineer'}))
    await tracker.record(application({url: 'https://example.org/jobs/2', title: 'SRE', company: 'Initech'}))
    await tracker.record(application({url: 'https://example.org/jobs/3', title: 'Later', company: 'Hooli'}))
    await interviews.schedule('1', {at: '2026-11-29 14:00'})
    await interviews.schedule('3', {at: '2026-12-05 14:00'})
    await interviews.schedule('2', {at: '2026-11-25 10:00', past: true})
    const followUps = new FollowUps(
      applications,
      {after_days: 7, ghosted_after_days: 21, after_interview_days: 5},
      clock,
      interviews,
    )

    const due = await followUps.toRemind(5)
    const digest = buildDigest([], {maxItems: 5, followUps: due})
    expect(digest.followUps).toEqual([
      'Interview tomorrow 14:00 Europe/Berlin: Backend Engineer at Acme (#1)',
      'Waiting after interview: SRE at Initech (#2), interviewed 3 days ago, no news since',
    ])
    expect(renderDigest(digest, TEXT_STYLE)).toContain(
      'Interview tomorrow 14:00 Europe/Berlin: Backend Engineer at Acme (#1)',
    )

    // A change after the interview ends the wait; a run without a channel names nothing.
    now = new Date('2026-11-28T10:00:00Z')
    await tracker.changeStatus('2', 'interviewing', 'thank-you mail sent')
    expect((await followUps.toRemind(5)).interviews?.waiting).toEqual([])
    expect((await followUps.toRemind(0)).interviews).toBeUndefined()
  })

  it('names the next actions due by tomorrow, overdue ones first, and leaves later ones for later', async () => {
    const {clock, applications, tracker, interviews} = trackerServices()
    await tracker.record(application({url: 'https://example.org/jobs/1', title: 'Backend Engineer'}))
    await tracker.record(application({url: 'https://example.org/jobs/2', title: 'SRE', company: 'Initech'}))
    await tracker.record(application({url: 'https://example.org/jobs/3', title: 'Later', company: 'Hooli'}))
    await tracker.setNext('1', {action: 'send portfolio', due: '2026-11-29'})
    await tracker.setNext('2', {action: 'call Ann back', due: '2026-11-27'})
    await tracker.setNext('3', {action: 'prepare slides', due: '2026-12-04'})
    const settings = {after_days: 7, ghosted_after_days: 21, after_interview_days: 5}
    const followUps = new FollowUps(applications, settings, clock, interviews)

    const digest = buildDigest([], {maxItems: 5, followUps: await followUps.toRemind(5)})
    expect(digest.followUps).toEqual([
      'Next action overdue since 2026-11-27: call Ann back for #2 SRE at Initech',
      'Next action due 2026-11-29: send portfolio for #1 Backend Engineer at Acme',
    ])
    // Two days on, the third is due tomorrow; done ones leave the digest.
    now = new Date('2026-12-03T09:00:00Z')
    await tracker.setNext('1', {action: ''})
    await tracker.setNext('2', {action: ''})
    const later = buildDigest([], {maxItems: 5, followUps: await followUps.toRemind(5)})
    expect(later.followUps).toEqual(['Next action due 2026-12-04: prepare slides for #3 Later at Hooli'])
  })
})
