#!/usr/bin/env node
import module from 'node:module'

// Node 22.1 and later can keep compiled code between runs (in the OS temp directory): a short command such as
// `jobagent status` then starts faster. Older Node versions have no such cache; nothing changes there.
module.enableCompileCache?.()

// @oclif/core checks the Node version against its own, looser range (>= 18) with semver on every start, about a
// tenth of a short command's time. jobagent's range (package.json engines, >= 20.19) is npm's to enforce at install.
process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'
// oclif comes from the build's single-file bundle of it (src/cli/oclif.ts), the module the commands import too.
const {execute} = await import('../dist/src/cli/oclif.js')

await execute({dir: import.meta.url})
