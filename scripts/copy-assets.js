// Copies non-TypeScript assets into dist so the installed package serves them without a CDN: the web page, and
// the Swagger UI files of the docs page (swagger-ui-dist is a devDependency, so an install never fetches it).
// Runs after tsc: the list of Swagger UI files and where they go come from the compiled modules that serve them.
import {cpSync, existsSync, mkdirSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join} from 'node:path'
import {SWAGGER_UI_COPY} from '../dist/src/app/shipped-files.js'
import {SWAGGER_UI_FILES, SWAGGER_UI_NOTICES} from '../dist/src/http/swagger-ui-assets.js'

if (existsSync('src/web')) cpSync('src/web', 'dist/src/web', {recursive: true})

const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
mkdirSync(SWAGGER_UI_COPY, {recursive: true})
for (const file of [...SWAGGER_UI_FILES, ...SWAGGER_UI_NOTICES])
  cpSync(join(swaggerUi, file), join(SWAGGER_UI_COPY, file))
