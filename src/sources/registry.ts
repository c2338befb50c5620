/**
 * The board registry: every board adapter jobagent has, one line each. Each adapter file (`greenhouse.ts`) exports
 * one descriptor, its row of BOARD_KINDS (src/core/jobs/board-kinds.ts: type, label, list key, settings, URL
 * recognition, entry checks) with how its sources are built and the URL each asks by default. The pure facts sit
 * in core and the descriptors spread them, so core and the config check that every command runs never load an
 * adapter, and the adapters never restate a fact: `test/sources/registry.test.ts` checks that each row has
 * exactly one adapter here and that the config schema and `boards find` agree with them.
 */

import {adzunaBoard} from './adzuna.js'
import {arbeitnowBoard} from './arbeitnow.js'
import {ashbyBoard} from './ashby.js'
import {bamboohrBoard} from './bamboohr.js'
import type {BoardAdapter} from './board-adapter.js'
import {breezyBoard} from './breezy.js'
import {fileBoard} from './file.js'
import {greenhouseBoard} from './greenhouse.js'
import {hackerNewsBoard} from './hackernews.js'
import {himalayasBoard} from './himalayas.js'
import {jobicyBoard} from './jobicy.js'
import {leverBoard} from './lever.js'
import {personioBoard} from './personio.js'
import {pinpointBoard} from './pinpoint.js'
import {recruiteeBoard} from './recruitee.js'
import {remoteOkBoard} from './remoteok.js'
import {remotiveBoard} from './remotive.js'
import {ripplingBoard} from './rippling.js'
import {rssBoard} from './rss.js'
import {smartRecruitersBoard} from './smartrecruiters.js'
import {teamtailorBoard} from './teamtailor.js'
import {weWorkRemotelyBoard} from './weworkremotely.js'
import {workableBoard} from './workable.js'
import {workdayBoard} from './workday.js'
import {workingNomadsBoard} from './workingnomads.js'

export const BOARD_ADAPTERS: readonly BoardAdapter[] = [
  adzunaBoard,
  arbeitnowBoard,
  ashbyBoard,
  bamboohrBoard,
  breezyBoard,
  fileBoard,
  greenhouseBoard,
  hackerNewsBoard,
  himalayasBoard,
  jobicyBoard,
  leverBoard,
  personioBoard,
  pinpointBoard,
  recruiteeBoard,
  remoteOkBoard,
  remotiveBoard,
  ripplingBoard,
  rssBoard,
  smartRecruitersBoard,
  teamtailorBoard,
  weWorkRemotelyBoard,
  workableBoard,
  workdayBoard,
  workingNomadsBoard,
]

const BY_TYPE: ReadonlyMap<string, BoardAdapter> = new Map(BOARD_ADAPTERS.map((adapter) => [adapter.type, adapter]))

/** The adapter of `type`; undefined for a type no adapter reads. */
export function boardAdapter(type: string): BoardAdapter | undefined {
  return BY_TYPE.get(type)
}
