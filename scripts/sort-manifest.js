// `oclif manifest` lists commands in the order the file system returns them, which differs between machines and
// runs; sorting them keeps the committed manifest byte-identical after every build.
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

const file = join(import.meta.dirname, '..', 'oclif.manifest.json')
const manifest = JSON.parse(readFileSync(file, 'utf8'))
const ids = Object.keys(manifest.commands).sort()
manifest.commands = Object.fromEntries(ids.map((id) => [id, manifest.commands[id]]))
writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`)
