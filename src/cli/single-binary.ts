/**
 * The entry point of the single executable (`npm run package`; scripts/package.js bundles it with the whole
 * application). oclif's root is the executable's directory and its package.json comes from the executable's
 * assets; the bundle answers oclif's reads of its manifest and its imports of commands, hooks and the help class.
 */
import cluster from 'node:cluster'
import {dirname} from 'node:path'
import {packageJsonText} from '../app/shipped-files.js'
import {entryArgs} from './entry-args.js'
import {execute, settings} from './oclif.js'

// oclif would look for a tsconfig.json beside the executable under NODE_ENV=development and try to compile
// sources from there; everything is compiled already.
settings.enableAutoTranspile = false

// A `serve --workers` worker is started with the primary's script path first (cluster's way), which for the
// executable is its own path again; oclif reads the arguments from process.argv, so the extra one goes there.
if (cluster.isWorker) process.argv.splice(2, 1)

void execute({
  args: entryArgs(process.argv.slice(2)),
  loadOptions: {root: dirname(process.execPath), pjson: JSON.parse(packageJsonText())},
})
