import {type McpServer, ResourceTemplate} from '@modelcontextprotocol/sdk/server/mcp.js'
import {ErrorCode, McpError, type ReadResourceResult} from '@modelcontextprotocol/sdk/types.js'
import type {AppContext} from '../app/context.js'
import {latestDigest} from '../app/latest-digest.js'
import {applicationInFull, applicationInFullDocument} from '../core/applications/application-in-full.js'
import {ValidationError} from '../core/errors.js'
import {UNTRUSTED} from './job-tools.js'
import {errorText} from './results.js'

const JSON_TYPE = 'application/json'

function json(uri: URL, data: unknown): ReadResourceResult {
  return {contents: [{uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(data, null, 2)}]}
}

/** One variable of a URI template, which the SDK gives as a list when the template repeats it. */
function single(value: string | string[] | undefined): string {
  return decodeURIComponent((Array.isArray(value) ? value[0] : value) ?? '')
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
        contents: [{uri: uri.href, mimeType: 'text/plain', text: await latestDigest(context)}],
      })),
  )
  server.registerResource(
    'job',
    new ResourceTemplate('jobagent://jobs/{id}', {list: undefined}),
    {title: 'Job', description: `A stored job in full, as get_job gives it. ${UNTRUSTED}`, mimeType: JSON_TYPE},
    (uri, {id}) =>
      readOrFail(context, async () => {
        const {parts, ...job} = await (await context.openJobCatalog()).show(jobIdOf(single(id)))
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
        json(uri, applicationInFullDocument(await applicationInFull(context, single(id)))),
      ),
  )
}

async function readOrFail(context: AppContext, read: () => Promise<ReadResourceResult>): Promise<ReadResourceResult> {
  try {
    return context.secrets.maskStrings(await read())
  } catch (error) {
    throw new McpError(ErrorCode.InvalidParams, context.secrets.mask(errorText(error, context.logger)))
  }
}
