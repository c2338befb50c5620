import {createHash} from 'node:crypto'

/**
 * The hash a stored description is kept under (`jobs.description_hash`): it tells a changed description from the
 * stored one without reading that back, and finds the job that holds a remembered text (DescriptionMemo).
 */
export function descriptionHash(description: string): string {
  return createHash('sha1').update(description).digest('base64')
}
