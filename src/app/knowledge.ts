import {createHash} from 'node:crypto'
import type {Knowledge} from '../core/matching/knowledge.js'
import {type PlaceData, placeIndex} from '../core/matching/places.js'
import {shippedFiles} from './shipped-files.js'

/**
 * The knowledge scoring reads, from the shipped data/ files. Only the commands that score call this (through
 * matchingFrom), so `--version`, `status` and `apply` never read the files.
 */
export function loadKnowledge(): Knowledge {
  const files = shippedFiles('data')
  const digest = createHash('sha256')
  for (const name of files.names) digest.update(name).update(files.read(name) ?? '')
  const places = files.read('places.json')
  if (!places) throw new Error('data/places.json is missing: run node scripts/build-places.js')
  return {
    version: digest.digest('hex').slice(0, 12),
    places: placeIndex(JSON.parse(places.toString('utf8')) as PlaceData),
  }
}
