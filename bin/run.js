#!/usr/bin/env node
import module from 'node:module'

// Node 22.1 and later can keep compiled code between runs (in the OS temp directory): a short command such as
// `jobagent status` then starts faster. Older Node versions have no such cache; nothing changes there.
module.enableCompileCache?.()

// oclif comes from the build's single-file bundle of it (src/cli/oclif.ts), the module the commands import too.
const {execute} = await import('../dist/src/cli/oclif.js')

// `--version --verbose` adds the attributions of the knowledge jobagent ships (NOTICE), read only then, so that
// `--version` itself stays as fast as oclif makes it.
const args = process.argv.slice(2)
if ((args[0] === '--version' || args[0] === '-v') && args.includes('--verbose')) {
  await execute({dir: import.meta.url, args: ['--version']})
  const {readFileSync} = await import('node:fs')
  process.stdout.write(`\n${readFileSync(new URL('../NOTICE', import.meta.url), 'utf8')}`)
} else {
  await execute({dir: import.meta.url})
}
