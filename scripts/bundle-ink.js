// Replaces dist/src/ui/ink.js (a re-export of 'ink') with one bundled file: Node loads one module instead of the
// ~500 that Ink and its dependencies consist of, which is most of the dashboard's time to the first frame.
// React stays external so the bundle and the compiled components share one React.
import {build} from 'esbuild'

await build({
  entryPoints: ['src/ui/ink.ts'],
  outdir: 'dist/src/ui',
  bundle: true,
  // Ink loads its devtools integration with a dynamic import only when DEV=true; splitting keeps it lazy.
  splitting: true,
  chunkNames: 'ink-chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['react', 'react-devtools-core'],
  // Ink's React renderer ships a development and a production build chosen at run time; fixing the choice drops
  // the development build (about half the bundle), and minifying cuts the parse time of what is left.
  define: {'process.env.NODE_ENV': '"production"'},
  minify: true,
  banner: {
    js: "import {createRequire as __createRequire} from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
  allowOverwrite: true,
})
