// Replaces compiled files that re-export a package with one bundled file each: Node then loads one module instead
// of the package's many, and a bundle built from a list of named exports leaves out what jobagent never calls.
// Each entry is a file in src/ that the rest of the code imports the package through.
import {build} from 'esbuild'

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  // Bundled CommonJS code calls require; an ES module has none of its own.
  banner: {
    js: "import {createRequire as __createRequire} from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
  allowOverwrite: true,
}

await Promise.all([
  // Ink and its dependencies are ~500 files, most of the dashboard's time to the first frame. React stays
  // external so the bundle and the compiled components share one React.
  build({
    ...common,
    entryPoints: ['src/ui/ink.ts'],
    outdir: 'dist/src/ui',
    // Ink loads its devtools integration with a dynamic import only when DEV=true; splitting keeps it lazy.
    splitting: true,
    chunkNames: 'ink-chunks/[name]-[hash]',
    external: ['react', 'react-devtools-core'],
    // Ink's React renderer ships a development and a production build chosen at run time; fixing the choice drops
    // the development build (about half the bundle).
    define: {'process.env.NODE_ENV': '"production"'},
  }),
  // zod/mini for the configuration schema, which every command reads: any entry of the zod package loads all its
  // locales and its JSON Schema generator, the bundle only the functions the schema uses.
  build({...common, entryPoints: ['src/app/zod-mini.ts'], outdir: 'dist/src/app'}),
  // oclif, which every command loads first. Its TypeScript support (ts-node, tsx, typescript) serves only
  // development against the sources and stays out.
  build({
    ...common,
    entryPoints: ['src/cli/oclif.ts'],
    outdir: 'dist/src/cli',
    external: ['typescript', 'ts-node', 'tsx'],
  }),
  // better-sqlite3's JavaScript, for every command that opens the tracker; its compiled library stays a file of
  // the installed package.
  build({...common, entryPoints: ['src/storage/sqlite/better-sqlite3.ts'], outdir: 'dist/src/storage/sqlite'}),
])
