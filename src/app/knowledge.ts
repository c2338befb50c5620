import {createHash} from 'node:crypto'
import type {Knowledge} from '../core/matching/knowledge.js'
import {type OccupationData, OccupationIndex} from '../core/matching/occupations.js'
import {type PlaceData, placeIndex} from '../core/matching/places.js'
import {HEAD_EQUIVALENTS, TITLE_ABBREVIATIONS, TITLE_OVERRIDES} from '../core/matching/role-overrides.js'
import {COMMON_WORD_SKILLS, SKILL_SYNONYMS, type SkillData, skillSpellings} from '../core/matching/skills.js'
import {shippedFiles} from './shipped-files.js'

/**
 * The files of data/ scoring reads, in the order their bytes go into the knowledge's version. The directory of
 * boards lies in data/ too and is none of them: scoring never reads its half megabyte, and a new directory leaves
 * the knowledge's version, and so every stored score, as it was.
 */
const KNOWLEDGE_FILES = ['occupations.json', 'places.json', 'skills.json'] as const

/**
 * The hand-written layer read with the files (role-overrides.ts, skills.ts): it changes what the files say, so it
 * goes into the version too, and a new override reads stored work (kept readings, a sweep's kept candidates) anew.
 */
const OVERRIDE_TABLES = JSON.stringify([
  TITLE_OVERRIDES,
  TITLE_ABBREVIATIONS,
  HEAD_EQUIVALENTS,
  SKILL_SYNONYMS,
  [...COMMON_WORD_SKILLS],
])

/**
 * The knowledge scoring reads, from the shipped data/ files. Only the commands that score call this (through
 * matchingFrom), so `--version`, `status` and `apply` never read the files.
 */
export function loadKnowledge(): Knowledge {
  const files = shippedFiles('data')
  // Each file is read once: its bytes go into the version's digest and are parsed.
  const bytes = new Map(KNOWLEDGE_FILES.map((name) => [name, files.read(name)]))
  const digest = createHash('sha256')
  for (const [name, content] of bytes) digest.update(name).update(content ?? '')
  digest.update(OVERRIDE_TABLES)
  return {
    version: digest.digest('hex').slice(0, 12),
    places: placeIndex(parsed(bytes, 'places.json') as PlaceData),
    occupations: new OccupationIndex(parsed(bytes, 'occupations.json') as OccupationData),
    skills: skillSpellings(parsed(bytes, 'skills.json') as SkillData),
  }
}

/** A knowledge file, parsed; a missing one means an incomplete install, which the error says with the file's name. */
function parsed(files: ReadonlyMap<string, Buffer | undefined>, name: string): unknown {
  const content = files.get(name)
  if (!content) throw new Error(`data/${name} is missing: jobagent is installed incompletely (reinstall it)`)
  return JSON.parse(content.toString('utf8'))
}
