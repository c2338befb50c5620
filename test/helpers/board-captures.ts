import type {JobResponse} from '../../src/core/jobs/job.js'
import type {JobSource} from '../../src/core/jobs/job-source.js'
import {arbeitnowBoard} from '../../src/sources/arbeitnow.js'
import {ashbyBoard} from '../../src/sources/ashby.js'
import {greenhouseBoard} from '../../src/sources/greenhouse.js'
import {himalayasBoard} from '../../src/sources/himalayas.js'
import {jobicyBoard} from '../../src/sources/jobicy.js'
import {leverBoard} from '../../src/sources/lever.js'
import {pinpointBoard} from '../../src/sources/pinpoint.js'
import {remoteOkBoard} from '../../src/sources/remoteok.js'
import {remotiveBoard} from '../../src/sources/remotive.js'
import {teamtailorBoard} from '../../src/sources/teamtailor.js'
import {weWorkRemotelyBoard} from '../../src/sources/weworkremotely.js'
import {workingNomadsBoard} from '../../src/sources/workingnomads.js'
import {serveBody, startMockServer} from './mock-board.js'
import {fetchAll, fixtureText, testDeps} from './source-fixtures.js'

/** Every board capture in test/fixtures/sources and the adapter that reads it, pointed at a local server. */
export const BOARD_CAPTURES: Record<string, {file: string; source: (url: string) => JobSource}> = {
  remoteok: {file: 'remoteok.json', source: (url) => remoteOkBoard.source({type: 'remoteok', url}, testDeps())},
  remotive: {file: 'remotive.json', source: (url) => remotiveBoard.source({type: 'remotive', url}, testDeps())},
  arbeitnow: {
    file: 'arbeitnow.json',
    source: (url) => arbeitnowBoard.source({type: 'arbeitnow', url, max_pages: 1}, testDeps()),
  },
  'arbeitnow-data-only': {
    file: 'arbeitnow-data-only.json',
    source: (url) => arbeitnowBoard.source({type: 'arbeitnow', url, max_pages: 1}, testDeps()),
  },
  jobicy: {file: 'jobicy.json', source: (url) => jobicyBoard.source({type: 'jobicy', url}, testDeps())},
  himalayas: {
    file: 'himalayas.json',
    source: (url) => himalayasBoard.source({type: 'himalayas', url, max_pages: 1}, testDeps()),
  },
  greenhouse: {
    file: 'greenhouse.json',
    source: (url) =>
      greenhouseBoard.source({type: 'greenhouse', url, boards: ['gitlab']}, {slug: 'gitlab'}, testDeps()),
  },
  lever: {
    file: 'lever.json',
    source: (url) => leverBoard.source({type: 'lever', url, sites: ['people-ai']}, {slug: 'people-ai'}, testDeps()),
  },
  ashby: {
    file: 'ashby.json',
    source: (url) => ashbyBoard.source({type: 'ashby', url, boards: ['notion']}, {slug: 'notion'}, testDeps()),
  },
  pinpoint: {
    file: 'pinpoint.json',
    source: (url) =>
      pinpointBoard.source({type: 'pinpoint', url, companies: ['workwithus']}, {slug: 'workwithus'}, testDeps()),
  },
  teamtailor: {
    file: 'teamtailor.json',
    source: (url) =>
      teamtailorBoard.source({type: 'teamtailor', url, companies: ['upcloud']}, {slug: 'upcloud'}, testDeps()),
  },
  workingnomads: {
    file: 'workingnomads.json',
    source: (url) => workingNomadsBoard.source({type: 'workingnomads', url}, testDeps()),
  },
  weworkremotely: {
    file: 'weworkremotely.xml',
    source: (url) => weWorkRemotelyBoard.source({type: 'weworkremotely', url}, testDeps()),
  },
}

/** The jobs an adapter reads from its capture, served by a local server for the time it takes. */
export async function captureJobs(board: string): Promise<{jobs: JobResponse[]; requests: string[]}> {
  const capture = BOARD_CAPTURES[board]
  if (!capture) throw new Error(`no capture for ${board}`)
  const type = capture.file.endsWith('.xml') ? 'application/rss+xml' : 'application/json'
  const server = await startMockServer(serveBody(fixtureText(capture.file), type))
  try {
    const jobs = await fetchAll(capture.source(server.url))
    return {jobs, requests: server.requests.map((request) => request.url)}
  } finally {
    await server.close()
  }
}
