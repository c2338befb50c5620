import {Flags} from './oclif.js'

/**
 * The filters `status` and `jobs` share: text, a source, and how recent. The words differ by what is listed, so each
 * command's help says what it matches: applications have notes and an applied date, jobs have tags, a board and
 * the time they were first seen.
 */
export const listFilterFlags = {
  search: Flags.string({
    description:
      'Only those containing this text (any case): applications in title, company or notes; jobs in title, ' +
      'company or tags (jobs have no notes).',
  }),
  source: Flags.string({
    description:
      "Only those from this source (any case): an application's source (linkedin, greenhouse:gitlab); a job's " +
      'board type (greenhouse, remoteok, rss), any board that listed it.',
  }),
  since: Flags.string({
    description:
      'Only those from the last N days, weeks, months or years (30d, 4w, 6m, 1y): applied for (status), first ' +
      'seen (jobs).',
  }),
}
