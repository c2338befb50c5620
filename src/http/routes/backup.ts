import {createRoute, OpenAPIHono} from '@hono/zod-openapi'
import type {HttpServices} from '../../app/http-services.js'
import {backupText} from '../../core/applications/backup.js'
import {validationHook} from '../errors.js'
import {BackupSchema, errorResponses} from '../schemas.js'

const getBackup = createRoute({
  method: 'get',
  path: '/backup',
  tags: ['applications'],
  summary: 'A backup of the tracker, the verdicts, the profile and the config',
  description:
    'The file `jobagent backup` writes (docs/BACKUP.md): every application with its id, history, interviews and ' +
    'contacts, the verdicts on jobs, the profile and the config without its secrets. Restore it with ' +
    '`jobagent restore FILE`. Needs the API token when one is set.',
  responses: {
    200: {
      description: 'The backup, as an attachment',
      content: {'application/json': {schema: BackupSchema}},
    },
    ...errorResponses(401),
  },
})

export function backupRoutes(services: Pick<HttpServices, 'backup'>) {
  return new OpenAPIHono({defaultHook: validationHook}).openapi(getBackup, async (c) => {
    const backup = await services.backup.create()
    const day = backup.created_at.slice(0, 10)
    c.header('Content-Disposition', `attachment; filename="jobagent-backup-${day}.json"`)
    // The same bytes as the file `jobagent backup` writes.
    return c.body(backupText(backup), 200, {'Content-Type': 'application/json; charset=utf-8'}) as never
  })
}
