import type {OccupationIndex} from './occupations.js'
import type {Places} from './places.js'

/**
 * What scoring knows of the world beyond the profile: occupations and their titles, places and their names. It is
 * built from the knowledge files jobagent ships (data/, each made by a script in scripts/ from open data) by
 * src/app/knowledge.ts, only when something is scored, and passed in: the rules here read it, they never load it.
 */
import type {SkillSpellings} from './skills.js'

export interface Knowledge {
  /** Which version of the shipped knowledge this is: a digest of the files it was built from and the override layer. */
  readonly version: string
  /** The world's countries, states, cities and regions by their names (places.ts). */
  readonly places: Places
  /** Occupations and their titles (O*NET), from data/occupations.json. */
  readonly occupations: OccupationIndex
  /** The other spellings of skills: a documented table and O*NET's tool names (data/skills.json). */
  readonly skills: SkillSpellings
}
