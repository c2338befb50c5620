import {createRoute, OpenAPIHono, z} from '@hono/zod-openapi'
import {Hono} from 'hono'
import {filesOnDisk, shippedFiles} from '../../app/shipped-files.js'
import {StaticFiles} from '../static-files.js'

/** The shipped web page, or the one in `dir` (tests). */
export function webFiles(dir?: string): StaticFiles {
  return new StaticFiles(dir === undefined ? shippedFiles('web') : filesOnDisk(dir))
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

/** The web page's assets at their path below the built page (`/app.js`); mounted last so API routes always win. */
export function webAssetRoutes(web: StaticFiles) {
  return new Hono().get(
    '/*',
    async (c, next) => (await web.response(c, c.req.path, {'Cache-Control': 'no-cache'})) ?? next(),
  )
}
