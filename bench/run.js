// `npm run bench`: runs every bench/*.bench.js (or only those named: `node bench/run.js cli-startup`) one after
// another, so they never compete for the two cores. Each script prints its own table and writes its Markdown
// report to bench/results/. Exits 1 when a script fails or reports a target it missed.
import {spawnSync} from 'node:child_process'
import {readdirSync} from 'node:fs'
import {basename, join} from 'node:path'

const dir = import.meta.dirname
const available = readdirSync(dir)
  .filter((file) => file.endsWith('.bench.js'))
  .sort()
const wanted = process.argv.slice(2).map((name) => basename(name).replace(/(\.bench)?\.js$/, ''))
const unknown = wanted.filter((name) => !available.includes(`${name}.bench.js`))
if (unknown.length > 0) {
  console.error(
    `unknown benchmark(s): ${unknown.join(', ')}; available: ${available.map((f) => f.replace('.bench.js', '')).join(', ')}`,
  )
  process.exit(2)
}
const selected = wanted.length > 0 ? wanted.map((name) => `${name}.bench.js`) : available

const failed = []
for (const file of selected) {
  console.log(`\n== ${file.replace('.bench.js', '')}\n`)
  const started = performance.now()
  const result = spawnSync(process.execPath, [join(dir, file)], {stdio: 'inherit'})
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  if (result.status !== 0) failed.push(file)
  console.log(`\n(${file}: ${result.status === 0 ? 'ok' : `exit ${result.status ?? result.signal}`}, ${seconds} s)`)
}
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.join(', ')}`)
  process.exit(1)
}
