import {createHash} from 'node:crypto'
import type {Knowledge} from '../core/matching/knowledge.js'
import {type OccupationData, OccupationIndex} from '../core/matching/occupations.js'
import {type PlaceData, placeIndex} from '../core/matching/places.js'
import {type SkillData, skillSpellings} from '../core/matching/skills.js'
import {type FileSet, shippedFiles} from './shipped-files.js'

/**
 * The knowledge scoring reads, from the shipped data/ files. Only the commands that score call this (through
 * matchingFrom), so `--version`, `status` and `apply` never read the files.
 */
export function loadKnowledge(): Knowledge {
  const files = shippedFiles('data')
  const digest = createHash('sha256')
  for (const name of files.names) digest.update(name).update(files.read(name) ?? '')
  return {
    version: digest.digest('hex').slice(0, 12),
    places: placeIndex(readJson(files, 'places.json') as PlaceData),
    occupations: new OccupationIndex(readJson(files, 'occupations.json') as OccupationData),
    skills: skillSpellings(readJson(files, 'skills.json') as SkillData),
  }
}

/** A knowledge file, parsed; a missing one means an incomplete install, which the error says with the file's name. */
function readJson(files: FileSet, name: string): unknown {
  const bytes = files.read(name)
  if (!bytes) throw new Error(`data/${name} is missing: jobagent is installed incompletely (reinstall it)`)
  return JSON.parse(bytes.toString('utf8'))
}
