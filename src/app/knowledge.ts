import {createHash} from 'node:crypto'
import type {Knowledge} from '../core/matching/knowledge.js'
import {OccupationIndex} from '../core/matching/occupations.js'
import {shippedFiles} from './shipped-files.js'

/**
 * The knowledge scoring reads, from the shipped data/ files. Only the commands that score call this (through
 * matchingFrom), so `--version`, `status` and `apply` never read the files.
 */
export function loadKnowledge(): Knowledge {
  const files = shippedFiles('data')
  const digest = createHash('sha256')
  for (const name of files.names) digest.update(name).update(files.read(name) ?? '')
  const occupations = files.read('occupations.json')
  if (!occupations) throw new Error('data/occupations.json is missing: jobagent is installed incompletely')
  return {
    version: digest.digest('hex').slice(0, 12),
    occupations: new OccupationIndex(JSON.parse(occupations.toString('utf8'))),
  }
}
