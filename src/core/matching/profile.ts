/** The levels a profile and a job can name, from the least to the most senior. */
export const SENIORITIES = ['junior', 'mid', 'senior', 'staff', 'lead'] as const
export type Seniority = (typeof SENIORITIES)[number]

/** What the user is looking for, for scoring (config `profile`); every key optional. */
export interface Profile {
  /** Wanted job titles (`platform engineer`, `sre`): the strongest signal. */
  roles: string[]
  /** Terms or phrases with a weight from 1 to 3. */
  skills: Record<string, number>
  /** Terms that rule a job out when its title or requirements name them. */
  avoid: string[]
  seniority: Seniority | 'any'
  /** The country or region where the person lives and may work, or `anywhere`; null: not said. */
  home: string | null
  /** Places the person accepts: `remote`, cities, countries, regions; `anywhere`/`worldwide` accepts any place. */
  locations: string[]
}

/** A profile that scores: one with roles, skills, avoided terms, a level, a home or places. */
export function hasProfile(profile: Profile): boolean {
  return (
    profile.roles.length > 0 ||
    Object.keys(profile.skills).length > 0 ||
    profile.avoid.length > 0 ||
    profile.seniority !== 'any' ||
    profile.home !== null ||
    profile.locations.length > 0
  )
}

/** A profile term as written, lower-cased and with single spaces. */
export function normaliseTerm(term: string): string {
  return term.trim().toLowerCase().replace(/\s+/g, ' ')
}
