// Builds the web page into dist/src/web, the directory `jobagent serve` serves (src/app/shipped-files.ts): the
// static files of src/web (index.html, app.css, favicon.svg) as they are, and its TypeScript modules bundled by
// esbuild into the one app.js that index.html loads. The bundle holds the pure core modules the page imports
// (statuses, salary formatting, the rule of a new job) and none of the server's code: the page imports only types
// from src/http, which esbuild drops, and a Node built-in reached from the page fails the build here.
import {cpSync, rmSync} from 'node:fs'
import {build} from 'esbuild'

const source = 'src/web'
const target = 'dist/src/web'

// Written afresh, so a module that moved or went leaves no file behind to be served or shipped.
rmSync(target, {recursive: true, force: true})
cpSync(source, target, {recursive: true, filter: (path) => !/\.ts$|tsconfig\.json$/.test(path)})
await build({
  entryPoints: [`${source}/app.ts`],
  outfile: `${target}/app.js`,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  logLevel: 'warning',
})
