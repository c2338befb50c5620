// Copies the Swagger UI files of the docs page into dist so the installed package serves them without a CDN
// (swagger-ui-dist is a devDependency, so an install never fetches it); the web page is built by bundle-web.js.
// Runs after tsc: the list of Swagger UI files and where they go come from the compiled modules that serve them.
import {cpSync, mkdirSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join} from 'node:path'
import {SWAGGER_UI_COPY} from '../dist/src/app/shipped-files.js'
import {SWAGGER_UI_FILES, SWAGGER_UI_NOTICES} from '../dist/src/http/swagger-ui-assets.js'

const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
mkdirSync(SWAGGER_UI_COPY, {recursive: true})
for (const file of [...SWAGGER_UI_FILES, ...SWAGGER_UI_NOTICES])
  cpSync(join(swaggerUi, file), join(SWAGGER_UI_COPY, file))
