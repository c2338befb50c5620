import {createHash} from 'node:crypto'
import type {Knowledge} from '../core/matching/knowledge.js'
import {type SkillData, skillSpellings} from '../core/matching/skills.js'
import {shippedFiles} from './shipped-files.js'

/**
 * The knowledge scoring reads, from the shipped data/ files. Only the commands that score call this (through
 * matchingFrom), so `--version`, `status` and `apply` never read the files.
 */
export function loadKnowledge(): Knowledge {
  const files = shippedFiles('data')
  const digest = createHash('sha256')
  for (const name of files.names) digest.update(name).update(files.read(name) ?? '')
  const json = <T>(name: string): T => {
    const bytes = files.read(name)
    if (!bytes) throw new Error(`the knowledge file data/${name} is missing`)
    return JSON.parse(bytes.toString('utf8')) as T
  }
  return {version: digest.digest('hex').slice(0, 12), skills: skillSpellings(json<SkillData>('skills.json'))}
}
