/**
 * A JSON.parse error's message with the line and column of its position added, for a file a person edits by hand:
 * Node 20 names only the character offset (`... in JSON at position 60`).
 */
export function jsonSyntaxMessage(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error)
  const position = /\bat position (\d+)/.exec(message)?.[1]
  if (position === undefined || /\bline \d+/.test(message)) return message
  // Counted in place: the text may be a backup of hundreds of MB, not to be copied or split to name one line.
  const at = Math.min(Number(position), text.length)
  let line = 1
  let lineStart = 0
  for (let index = text.indexOf('\n'); index !== -1 && index < at; index = text.indexOf('\n', index + 1)) {
    line++
    lineStart = index + 1
  }
  return `${message} (line ${line}, column ${at - lineStart + 1})`
}
