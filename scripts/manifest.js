// Writes oclif.manifest.json. The oclif tool checks the registry for a newer version of itself on every run; the
// build must not reach the network for that (it also runs inside `npm ci`), so the check is switched off.
// `oclif manifest` lists commands in the order the file system returns them, which differs between machines and
// runs; sorting them keeps the committed manifest byte-identical after every build.
import {spawnSync} from 'node:child_process'
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

const root = join(import.meta.dirname, '..')
const oclif = join(root, 'node_modules', 'oclif', 'bin', 'run.js')
const result = spawnSync(process.execPath, [oclif, 'manifest'], {
  cwd: root,
  env: {...process.env, OCLIF_SKIP_NEW_VERSION_CHECK: 'true'},
  stdio: 'inherit',
})
if (result.status !== 0) process.exit(result.status ?? 1)

const file = join(root, 'oclif.manifest.json')
const manifest = JSON.parse(readFileSync(file, 'utf8'))
const ids = Object.keys(manifest.commands).sort()
manifest.commands = Object.fromEntries(ids.map((id) => [id, manifest.commands[id]]))
writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`)
