import {Flags} from './oclif.js'

/** The filters `status` and `jobs` share: text in the title, company or notes, a source, and how recent. */
export const listFilterFlags = {
  search: Flags.string({description: 'Only those whose title, company or notes contain this text (any case).'}),
  source: Flags.string({description: 'Only those from this source (e.g. linkedin, greenhouse:gitlab).'}),
  since: Flags.string({description: 'Only those from the last N days, weeks or months (30d, 4w, 6m).'}),
}
