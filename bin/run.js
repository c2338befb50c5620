#!/usr/bin/env node
import module from 'node:module'

// Node 22.1 and later can keep compiled code between runs (in the OS temp directory): a short command such as
// `jobagent status` then starts faster. Older Node versions have no such cache; nothing changes there.
module.enableCompileCache?.()

// oclif comes from the build's single-file bundle of it (src/cli/oclif.ts), the module the commands import too.
const {execute} = await import('../dist/src/cli/oclif.js')
// `--version --verbose` is the version command with the attributions (src/cli/entry-args.ts).
const {entryArgs} = await import('../dist/src/cli/entry-args.js')
await execute({dir: import.meta.url, args: entryArgs(process.argv.slice(2))})
