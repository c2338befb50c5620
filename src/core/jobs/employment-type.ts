import * as z from '../zod-mini.js'

/** The employment types a job can have, in the order documents list them. */
const EMPLOYMENT_TYPES = ['full_time', 'part_time', 'contract', 'internship', 'temporary'] as const

export const employmentTypeSchema = /* @__PURE__ */ z.enum(EMPLOYMENT_TYPES)

export type EmploymentType = z.output<typeof employmentTypeSchema>

/**
 * Board values, as employmentTypeKey spells them, and the type each means. Sources: Remotive `job_type`, Jobicy
 * `jobType`, Himalayas and Ashby `employmentType`, Lever `categories.commitment`, We Work Remotely `<type>`,
 * Arbeitnow `job_types` (English and German), Personio `employmentType` and `schedule`, Recruitee
 * `employment_type_code`, Workable `employment_type`, Workday `timeType`, BambooHR
 * `employmentStatusLabel`, Rippling `employmentType.label` (`SALARIED_FT`, `HOURLY_PT`, `CONTRACTOR`, `TEMP`). Decisions beyond the literal names:
 * - `freelance`, `freiberuflich`, `freie mitarbeit` are contract work.
 * - `Werkstudent`/`Working student` and `Minijob` are part-time: a student works at most 20 hours a week in term,
 *   a Minijob is capped by its pay.
 * - `Ausbildung` (a vocational apprenticeship) and `trainee` are internship: a training position, not regular employment.
 * - `befristet` (fixed-term) is temporary; `Festanstellung` and `permanent` are full-time.
 * Values that describe experience or role rather than a type (`berufserfahren`, `experienced`,
 * `Berufseinsteiger`, `teamleitung`, `Side`) are not in the table and are skipped.
 */
export const EMPLOYMENT_TYPE_TABLE: Readonly<Record<string, EmploymentType>> = {
  'full time': 'full_time',
  fulltime: 'full_time',
  'full time permanent': 'full_time',
  'fulltime permanent': 'full_time',
  'salaried ft': 'full_time',
  'hourly ft': 'full_time',
  permanent: 'full_time',
  vollzeit: 'full_time',
  festanstellung: 'full_time',
  'part time': 'part_time',
  parttime: 'part_time',
  'salaried pt': 'part_time',
  'hourly pt': 'part_time',
  teilzeit: 'part_time',
  werkstudent: 'part_time',
  werkstudentin: 'part_time',
  'working student': 'part_time',
  minijob: 'part_time',
  'mini job': 'part_time',
  contract: 'contract',
  contractor: 'contract',
  freelance: 'contract',
  freelancer: 'contract',
  freiberuflich: 'contract',
  'freie mitarbeit': 'contract',
  internship: 'internship',
  intern: 'internship',
  praktikum: 'internship',
  praktikant: 'internship',
  praktikantin: 'internship',
  ausbildung: 'internship',
  trainee: 'internship',
  temporary: 'temporary',
  temp: 'temporary',
  befristet: 'temporary',
}

/**
 * A board value as the table keys it: camel case split (`FullTime` -> `full time`), lower case, and `-`, `_`, `/`
 * and runs of spaces as one space (`Full-Time`, `full_time`, `Full Time` are one key).
 */
export function employmentTypeKey(value: string): string {
  return value
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .toLowerCase()
    .replace(/[\s\-_/]+/g, ' ')
    .trim()
}

/**
 * The employment type a board states: one string, or a list of strings where the first value that maps wins
 * (Arbeitnow's `["experienced", "Full-time permanent"]` is full_time). Null when nothing maps.
 */
export function employmentType(value: unknown): EmploymentType | null {
  const values = Array.isArray(value) ? value : [value]
  for (const item of values) {
    if (typeof item !== 'string') continue
    const type = EMPLOYMENT_TYPE_TABLE[employmentTypeKey(item)]
    if (type !== undefined) return type
  }
  return null
}
