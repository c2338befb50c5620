/**
 * What scoring knows of the world beyond the profile: occupations and their titles, places and their names. It is
 * built from the knowledge files jobagent ships (data/, each made by a script in scripts/ from open data) by
 * src/app/knowledge.ts, only when something is scored, and passed in: the rules here read it, they never load it.
 */
import type {SkillSpellings} from './skills.js'

export interface Knowledge {
  /** Which version of the shipped knowledge this is: a digest of the files it was built from. */
  readonly version: string
  /** The other spellings of skills: a documented table and O*NET's tool names (data/skills.json). */
  readonly skills: SkillSpellings
}
