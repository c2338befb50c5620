import type {DocumentFiles} from '../app/application-documents.js'
import {ValidationError} from '../core/errors.js'

/** The documents `apply` and `edit` were given (--cv, --cover-letter); undefined when none. */
export function documentFiles(flags: {
  cv?: string
  coverLetter?: string
  keepCopy: boolean
}): DocumentFiles | undefined {
  const files: DocumentFiles = {}
  if (flags.cv !== undefined) files.cv = flags.cv
  if (flags.coverLetter !== undefined) files.cover_letter = flags.coverLetter
  if (Object.keys(files).length > 0) return files
  if (flags.keepCopy) {
    throw new ValidationError('--keep-copy goes with --cv or --cover-letter', {
      hint: 'name the file sent: jobagent edit <id> --cv cv.pdf --keep-copy',
    })
  }
  return undefined
}
