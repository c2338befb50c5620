import {Flags} from './oclif.js'

/** What each filter matches in what is listed: applications have notes and an applied date, jobs tags and a board. */
const MATCHED = {
  applications: {
    search: 'title, company or notes',
    source: "the application's source (linkedin, greenhouse:gitlab)",
    since: 'applied for',
  },
  jobs: {
    search: 'title, company or tags',
    source: 'the board type (greenhouse, remoteok, rss) of any board that listed it',
    since: 'first seen',
  },
} as const

/** The filters `status` and `jobs` share: text, a source, and how recent, each described for what is listed. */
export function listFilterFlags(listed: keyof typeof MATCHED) {
  const matched = MATCHED[listed]
  return {
    search: Flags.string({description: `Only those containing this text (any case) in ${matched.search}.`}),
    source: Flags.string({description: `Only those from this source (any case): ${matched.source}.`}),
    since: Flags.string({
      description: `Only those ${matched.since} in the last N days, weeks, months or years (30d, 4w, 6m, 1y).`,
    }),
  }
}
