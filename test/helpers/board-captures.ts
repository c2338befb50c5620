import type {JobResponse} from '../../src/core/jobs/job.js'
import type {JobSource} from '../../src/core/jobs/job-source.js'
import {
  arbeitnowSource,
  ashbySource,
  greenhouseSource,
  himalayasSource,
  jobicySource,
  leverSource,
  pinpointSource,
  remoteOkSource,
  remotiveSource,
  teamtailorSource,
  workingNomadsSource,
} from '../../src/sources/boards.js'
import {weWorkRemotelySource} from '../../src/sources/weworkremotely.js'
import {serveBody, startMockServer} from './mock-board.js'
import {fetchAll, fixtureText, testDeps} from './source-fixtures.js'

/** Every board capture in test/fixtures/sources and the adapter that reads it, pointed at a local server. */
export const BOARD_CAPTURES: Record<string, {file: string; source: (url: string) => JobSource}> = {
  remoteok: {file: 'remoteok.json', source: (url) => remoteOkSource({type: 'remoteok', url}, testDeps())},
  remotive: {file: 'remotive.json', source: (url) => remotiveSource({type: 'remotive', url}, testDeps())},
  arbeitnow: {
    file: 'arbeitnow.json',
    source: (url) => arbeitnowSource({type: 'arbeitnow', url, max_pages: 1}, testDeps()),
  },
  'arbeitnow-data-only': {
    file: 'arbeitnow-data-only.json',
    source: (url) => arbeitnowSource({type: 'arbeitnow', url, max_pages: 1}, testDeps()),
  },
  jobicy: {file: 'jobicy.json', source: (url) => jobicySource({type: 'jobicy', url}, testDeps())},
  himalayas: {
    file: 'himalayas.json',
    source: (url) => himalayasSource({type: 'himalayas', url, max_pages: 1}, testDeps()),
  },
  greenhouse: {
    file: 'greenhouse.json',
    source: (url) => greenhouseSource({type: 'greenhouse', url, boards: ['gitlab']}, {slug: 'gitlab'}, testDeps()),
  },
  lever: {
    file: 'lever.json',
    source: (url) => leverSource({type: 'lever', url, sites: ['people-ai']}, {slug: 'people-ai'}, testDeps()),
  },
  ashby: {
    file: 'ashby.json',
    source: (url) => ashbySource({type: 'ashby', url, boards: ['notion']}, {slug: 'notion'}, testDeps()),
  },
  pinpoint: {
    file: 'pinpoint.json',
    source: (url) =>
      pinpointSource({type: 'pinpoint', url, companies: ['workwithus']}, {slug: 'workwithus'}, testDeps()),
  },
  teamtailor: {
    file: 'teamtailor.json',
    source: (url) => teamtailorSource({type: 'teamtailor', url, companies: ['upcloud']}, {slug: 'upcloud'}, testDeps()),
  },
  workingnomads: {
    file: 'workingnomads.json',
    source: (url) => workingNomadsSource({type: 'workingnomads', url}, testDeps()),
  },
  weworkremotely: {
    file: 'weworkremotely.xml',
    source: (url) => weWorkRemotelySource({type: 'weworkremotely', url}, testDeps()),
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
