import {Hono} from 'hono'
import {shippedFiles} from '../../app/shipped-files.js'
import {StaticFiles} from '../static-files.js'
import {SWAGGER_UI_FILES} from '../swagger-ui-assets.js'

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>jobagent API</title>
    <link rel="stylesheet" href="/docs/swagger-ui.css">
    <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`

// An external script rather than an inline one, so the Content-Security-Policy can forbid inline scripts.
const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  })
})
`

/** GET /openapi.json (built on first request, when every route is registered) and the docs page at /docs. */
export function docsRoutes(openApiDocument: () => unknown) {
  const assets = new StaticFiles(shippedFiles('swagger-ui'), {prefix: '/docs', only: SWAGGER_UI_FILES})
  let document: string | undefined
  return new Hono()
    .get('/openapi.json', (c) => {
      document ??= JSON.stringify(openApiDocument())
      return c.body(document, 200, {'Content-Type': 'application/json; charset=utf-8'})
    })
    .get('/docs', (c) => c.html(PAGE))
    .get('/docs/init.js', (c) => c.body(INIT, 200, {'Content-Type': 'text/javascript; charset=utf-8'}))
    .get('/docs/:file', async (c, next) => {
      const response = await assets.response(c, c.req.path, {'Cache-Control': 'public, max-age=86400'})
      return response ?? next()
    })
}
