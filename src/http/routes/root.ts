import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {createRoute, OpenAPIHono, z} from '@hono/zod-openapi'
import {Hono} from 'hono'
import {StaticFiles} from '../static-files.js'

/** src/web in development, dist/src/web when built (scripts/copy-assets.js copies it). */
const WEB_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../web')

export function webFiles(dir: string = WEB_DIR): StaticFiles {
  return new StaticFiles(dir)
}

const root = createRoute({
  method: 'get',
  path: '/',
  tags: ['operations'],
  summary: 'What this service is; browsers (Accept: text/html) get the web page',
  security: [],
  responses: {
    200: {
      description: 'The service description, or the web page for browsers',
      content: {
        'application/json': {
          schema: z.object({
            service: z.literal('jobagent'),
            version: z.string(),
            status: z.literal('ok'),
            docs: z.string().openapi({example: '/docs'}),
          }),
        },
        'text/html': {schema: z.string()},
      },
    },
  },
})

/** GET /: JSON for API clients, the web page for browsers. */
export function rootRoutes(version: string, web: StaticFiles) {
  const description = {service: 'jobagent' as const, version, status: 'ok' as const, docs: '/docs'}
  return new OpenAPIHono().openapi(root, async (c) => {
    if ((c.req.header('accept') ?? '').includes('text/html')) {
      const page = await web.response(c, '/index.html', {'Cache-Control': 'no-cache', Vary: 'Accept'})
      if (page) return page
    }
    return c.json(description, 200, {Vary: 'Accept'})
  })
}

/** The web page's assets at their path below src/web (`/app.js`); mounted last so API routes always win. */
export function webAssetRoutes(web: StaticFiles) {
  return new Hono().get(
    '/*',
    async (c, next) => (await web.response(c, c.req.path, {'Cache-Control': 'no-cache'})) ?? next(),
  )
}
