#!/usr/bin/env node
// The `node-gyp` of jobagent's own install: a dev dependency whose bin comes first on the PATH of every install
// script, so npm runs it instead of its own node-gyp whenever a dependency compiles a native addon (better-sqlite3
// does when its prebuilt binary cannot be downloaded). It points node-gyp at the headers of the Node.js that runs
// npm when they are installed beside it (Debian's nodejs has them in /usr/include/node, a tarball install in
// <prefix>/include/node) and are of that very version, so a machine that cannot reach nodejs.org still builds;
// otherwise node-gyp downloads the headers as it always does. npm's `node-gyp` setting is not used for this: npm
// reads it from the user's config alone, never from a project's .npmrc.
import {spawnSync} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join} from 'node:path'

/** The version a node_version.h declares, e.g. `20.20.2`, or undefined when the file says none. */
function headerVersion(file) {
  const text = readFileSync(file, 'utf8')
  const part = (name) => new RegExp(`^#define ${name} (\\d+)$`, 'm').exec(text)?.[1]
  const parts = [part('NODE_MAJOR_VERSION'), part('NODE_MINOR_VERSION'), part('NODE_PATCH_VERSION')]
  return parts.every((value) => value !== undefined) ? parts.join('.') : undefined
}

/** The installation prefix whose include/node holds this Node.js's own headers, if there is one. */
function ownHeaders() {
  const prefix = dirname(dirname(process.execPath))
  const version = join(prefix, 'include', 'node', 'node_version.h')
  if (!existsSync(version) || !existsSync(join(prefix, 'include', 'node', 'common.gypi'))) return undefined
  return headerVersion(version) === process.versions.node ? prefix : undefined
}

/** npm's own node-gyp: the one npm would have run without the setting. */
function npmNodeGyp() {
  const npm = process.env.npm_execpath
  const candidates = npm ? [createRequire(npm)] : []
  candidates.push(createRequire(join(dirname(dirname(process.execPath)), 'lib', 'node_modules', 'npm', 'index.js')))
  for (const require of candidates) {
    try {
      return require.resolve('node-gyp/bin/node-gyp.js')
    } catch {}
  }
  throw new Error('npm\'s node-gyp was not found; run "npm install -g node-gyp" or unset the node-gyp setting')
}

const env = {...process.env}
const prefix = env.npm_config_nodedir ? undefined : ownHeaders()
if (prefix) env.npm_config_nodedir = prefix
const result = spawnSync(process.execPath, [npmNodeGyp(), ...process.argv.slice(2)], {stdio: 'inherit', env})
process.exit(result.status ?? 1)
