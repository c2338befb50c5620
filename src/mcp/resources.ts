import {type McpServer, ResourceTemplate} from '@modelcontextprotocol/sdk/server/mcp.js'
import {ErrorCode, type ReadResourceResult} from '@modelcontextprotocol/sdk/types.js'
import type {AppContext} from '../app/context.js'
import {latestDigest} from '../app/latest-digest.js'
import {applicationInFull, applicationInFullDocument} from '../core/applications/application-in-full.js'
import {type ErrorKind, isJobagentError, ValidationError} from '../core/errors.js'
import {UNTRUSTED} from './job-tools.js'
import {errorText} from './results.js'

const JSON_TYPE = 'application/json'

function json(uri: URL, data: unknown): ReadResourceResult {
  return {contents: [{uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(data, null, 2)}]}
}

/**
 * One variable of a URI template (the SDK gives a list when the template repeats it), percent-decoded; a `%` that
 * starts no escape is the client's mistake, named with the id as it came.
 */
function single(value: string | string[] | undefined): string {
  const raw = (Array.isArray(value) ? value[0] : value) ?? ''
  try {
    return decodeURIComponent(raw)
  } catch {
    throw new ValidationError(`the id in the URI is not percent-encoded: ${JSON.stringify(raw)}`, {
      hint: 'encode the id as one path segment (encodeURIComponent): a % is written %25, a / is written %2F',
    })
  }
}

function jobIdOf(value: string): number {
  if (!/^[1-9]\d{0,15}$/.test(value)) {
    throw new ValidationError(`not a job id: ${JSON.stringify(value)}`, {
      hint: 'job ids are whole numbers from 1, as list_jobs gives them',
    })
  }
  return Number(value)
}

/**
 * The profile, the latest digest, and jobs and applications by URI. A resource that cannot be read (an unknown id)
 * is a protocol error (reads have no error result as tools do) carrying the message and the hint.
 */
export function registerResources(server: McpServer, context: AppContext): void {
  server.registerResource(
    'profile',
    'jobagent://profile',
    {
      title: 'Profile',
      description: 'What jobs the person wants (config profile): roles, skills, avoid, level, places.',
      mimeType: JSON_TYPE,
    },
    (uri) => json(uri, context.config.profile),
  )
  server.registerResource(
    'latest-digest',
    'jobagent://digest/latest',
    {
      title: 'Latest digest',
      description:
        'The digest a run would send now, from stored data: the new jobs of the last run and the follow-ups due. ' +
        UNTRUSTED,
      mimeType: 'text/plain',
    },
    (uri) =>
      readOrFail(context, async () => ({
        contents: [{uri: uri.href, mimeType: 'text/plain', text: await latestDigest(context.forReading())}],
      })),
  )
  server.registerResource(
    'job',
    new ResourceTemplate('jobagent://jobs/{id}', {list: undefined}),
    {title: 'Job', description: `A stored job in full, as get_job gives it. ${UNTRUSTED}`, mimeType: JSON_TYPE},
    (uri, {id}) =>
      readOrFail(context, async () => {
        const {parts, ...job} = await (await context.forReading().openJobCatalog()).show(jobIdOf(single(id)))
        return json(uri, {...job, explain: parts})
      }),
  )
  server.registerResource(
    'application',
    new ResourceTemplate('jobagent://applications/{id}', {list: undefined}),
    {
      title: 'Application',
      description: 'A tracked application (short id or percent-encoded URL) with its history, interviews and contacts.',
      mimeType: JSON_TYPE,
    },
    (uri, {id}) =>
      readOrFail(context, async () =>
        json(uri, applicationInFullDocument(await applicationInFull(context.forReading(), single(id)))),
      ),
  )
}

/** The protocol's code for each kind of error: -32002 is MCP's "resource not found". */
const CODE_BY_KIND: Record<ErrorKind, number> = {
  not_found: -32002,
  validation: ErrorCode.InvalidParams,
  conflict: ErrorCode.InvalidParams,
  unavailable: ErrorCode.InternalError,
  configuration: ErrorCode.InternalError,
}

/**
 * A read that failed, as the SDK answers it: its code and its message, the `Error:` and `Hint:` lines. Not an
 * McpError, whose message starts with its own "MCP error <code>:", to which the client adds another.
 */
class ReadFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

async function readOrFail(context: AppContext, read: () => Promise<ReadResourceResult>): Promise<ReadResourceResult> {
  try {
    return context.secrets.maskStrings(await read())
  } catch (error) {
    const code = isJobagentError(error) ? CODE_BY_KIND[error.kind] : ErrorCode.InternalError
    throw new ReadFailure(code, context.secrets.mask(errorText(error, context.logger)))
  }
}
