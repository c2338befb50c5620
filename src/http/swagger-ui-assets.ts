import {existsSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname} from 'node:path'
import {fileURLToPath} from 'node:url'

/** The Swagger UI files the docs page uses (no CDN). */
export const SWAGGER_UI_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png']

/**
 * Swagger UI's licence terms (Apache-2.0), which travel with the copied files (read by scripts/copy-assets.js
 * from the build).
 * @public
 */
export const SWAGGER_UI_NOTICES = ['LICENSE', 'NOTICE']

/** Where the build puts its copy (scripts/copy-assets.js): dist/src/http/swagger-ui. */
export const SWAGGER_UI_COPY = fileURLToPath(new URL('./swagger-ui', import.meta.url))

/**
 * swagger-ui-dist is a devDependency: an installed jobagent serves the copy made at build time, so a user's
 * install never fetches the package (nor the install-time analytics script it depends on). Run from the
 * sources (tests, bin/dev.js), there is no copy and the package itself is used.
 */
export function swaggerUiDir(): string {
  if (existsSync(SWAGGER_UI_COPY)) return SWAGGER_UI_COPY
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
}
