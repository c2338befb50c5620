import {hash} from 'node:crypto'

/** What a piece of content is derived from, for its validators. */
export interface Version {
  /** The values that make up the content; the tag changes when any of them does. */
  parts: readonly unknown[]
  /** When the content last changed, where known (ms since the epoch). */
  lastModified?: number
}

/**
 * A weak entity tag hashed from `parts` (weak, since parts of a body such as the time it was made may differ between
 * answers that mean the same): the ETag of an HTTP answer and the id of an event-stream message, so both agree.
 */
export function versionTag(parts: readonly unknown[]): string {
  return `W/"${hash('sha1', JSON.stringify(parts), 'base64url')}"`
}
