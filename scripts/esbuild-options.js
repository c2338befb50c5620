// What the esbuild bundles of jobagent share: the start-up bundles of single packages (scripts/bundle-modules.js)
// and the single executable's bundle of the whole application (scripts/package.js).

export const nodeBundle = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: true,
  logLevel: 'warning',
}

/**
 * React and Ink's renderer ship a development and a production build chosen at run time from NODE_ENV; fixing the
 * choice drops the development build (about half of each).
 */
export const productionBuildOnly = {'process.env.NODE_ENV': '"production"'}

/** oclif's TypeScript support serves only development against the sources. */
export const oclifTypeScriptSupport = ['typescript', 'ts-node', 'tsx']

/** Ink loads its devtools integration only when DEV=true, with a package jobagent does not install. */
export const inkDevtools = 'react-devtools-core'
