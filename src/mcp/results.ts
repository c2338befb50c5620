import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {isJobagentError} from '../core/errors.js'
import type {Logger} from '../core/logger.js'
import type {SecretMask} from '../core/secrets.js'

/** What a tool's answer is made with: the log for bugs, and the configured secrets, masked in every answer. */
interface ToolScope {
  logger: Logger
  secrets: SecretMask
}

/**
 * A tool's answer: the data as structured content, a short summary for the person, and the same data as JSON text
 * for clients that read no structured content (the protocol asks servers to send both).
 */
export function answer(summary: string, data: Record<string, unknown>): CallToolResult {
  return {
    content: [
      {type: 'text', text: summary},
      {type: 'text', text: JSON.stringify(data)},
    ],
    structuredContent: data,
  }
}

/**
 * An error as a tool error: `Error:` and `Hint:` lines as the CLI writes them, so the assistant can tell the person
 * what to do. Anything that is not a JobagentError is a bug: its stack goes to the log on stderr, never to the client.
 */
function toolError(error: unknown, scope: ToolScope): CallToolResult {
  return {content: [{type: 'text', text: scope.secrets.mask(errorText(error, scope.logger))}], isError: true}
}

/** `Error:`, the details and `Hint:`, one per line; a bug is named as one and its stack logged. */
export function errorText(error: unknown, logger: Logger): string {
  if (!isJobagentError(error)) {
    logger.error(`unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    const message = error instanceof Error ? error.message : String(error)
    return `Error: unexpected failure: ${message}\nThis is a bug in jobagent; its log (stderr) has the details.`
  }
  const details = error.details
    .filter((detail) => !error.message.includes(detail.message))
    .map((detail) => `  - ${detail.field ? `${detail.field}: ` : ''}${detail.message}`)
  const hint = error.hint ? [`Hint: ${error.hint}`] : []
  return [`Error: ${error.message}`, ...details, ...hint].join('\n')
}

/**
 * A tool handler whose failures come back as tool errors, and whose answers carry no configured secret: a board
 * that failed is quoted in them, and may have echoed one.
 */
export function guarded<A>(
  scope: ToolScope,
  handler: (args: A) => Promise<CallToolResult>,
): (args: A) => Promise<CallToolResult> {
  return async (args) => {
    try {
      return scope.secrets.maskStrings(await handler(args))
    } catch (error) {
      return toolError(error, scope)
    }
  }
}
