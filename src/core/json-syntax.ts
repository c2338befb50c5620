/**
 * A JSON.parse error's message with the line and column of its position added, for a file a person edits by hand:
 * Node 20 names only the character offset (`... in JSON at position 60`).
 */
export function jsonSyntaxMessage(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error)
  const position = /\bat position (\d+)/.exec(message)?.[1]
  if (position === undefined || /\bline \d+/.test(message)) return message
  const before = text.slice(0, Number(position))
  const line = before.split('\n').length
  const column = Number(position) - before.lastIndexOf('\n')
  return `${message} (line ${line}, column ${column})`
}
