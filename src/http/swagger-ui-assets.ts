/** The Swagger UI files the docs page uses (no CDN). */
export const SWAGGER_UI_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png']

/**
 * Swagger UI's licence terms (Apache-2.0), which travel with the copied files (read by scripts/copy-assets.js
 * from the build).
 * @public
 */
export const SWAGGER_UI_NOTICES = ['LICENSE', 'NOTICE']
