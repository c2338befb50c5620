import {loadKnowledge} from '../../src/app/knowledge.js'
import type {Knowledge} from '../../src/core/matching/knowledge.js'

/** The knowledge jobagent ships (data/), loaded once for the tests of a file: the real files, not a copy. */
export const knowledge: Knowledge = loadKnowledge()
