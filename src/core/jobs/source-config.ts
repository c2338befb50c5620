/**
 * The settings of one `sources` entry: which board adapter to build and how. Defined here, beside the JobSource
 * port, so the adapters in src/sources and the config file's schema in src/app share one definition.
 */

export const SOURCE_TYPES = [
  'remoteok',
  'remotive',
  'arbeitnow',
  'jobicy',
  'himalayas',
  'weworkremotely',
  'greenhouse',
  'lever',
  'ashby',
  'hackernews',
  'rss',
  'file',
] as const

export type SourceType = (typeof SOURCE_TYPES)[number]

/** A board, site or company slug, with the company name to show when the board carries none (Lever, Ashby). */
export interface BoardRef {
  slug: string
  company?: string
}

export interface SourceConfig {
  type: SourceType
  name?: string
  url?: string
  enabled?: boolean
  timeout_seconds?: number
  max_pages?: number
  boards?: (string | BoardRef)[]
  sites?: (string | BoardRef)[]
  region?: 'global' | 'eu'
  path?: string
}
