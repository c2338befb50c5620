import {hash} from 'node:crypto'

/**
 * A short fingerprint of a text that jobagent.db keeps instead of the text itself, to tell a changed one apart
 * without reading it back: a description (`jobs.description_hash`), the HTML a description was read from
 * (DescriptionMemo), the search criteria a board was asked with (`job_boards.criteria`).
 */
export function textHash(text: string): string {
  return hash('sha1', text, 'base64')
}
