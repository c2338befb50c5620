/**
 * A short fingerprint of a text, kept instead of the text itself to tell a changed one apart without reading it
 * back: a description (its key in the descriptions the store keeps), the HTML a description was read from, the
 * search criteria a board was asked with (a job's board counts). Several parts hash as their concatenation would,
 * without building it (a description's HTML is several KB).
 */
export function textHash(...parts: [string, ...string[]]): string {
  // node:crypto is taken when the first text is fingerprinted: the commands that only read jobagent.db (status,
  // jobs) never do, so their start does not load it.
  const crypto = process.getBuiltinModule('node:crypto')
  if (parts.length === 1) return crypto.hash('sha1', parts[0], 'base64')
  const digest = crypto.createHash('sha1')
  for (const part of parts) digest.update(part)
  return digest.digest('base64')
}
