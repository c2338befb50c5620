// Preloaded with --import into a benchmarked process: records every module it loads into the file named by
// JOBAGENT_BENCH_MODULES_FILE, one URL or path a line. ES modules are seen by a resolve hook (which runs on
// the loader thread), CommonJS ones through the require cache when the process exits.
import {appendFileSync} from 'node:fs'
import {createRequire, register} from 'node:module'

const target = process.env.JOBAGENT_BENCH_MODULES_FILE
if (target) {
  register('./module-recorder-hooks.js', import.meta.url)
  const cache = createRequire(import.meta.url).cache
  process.on('exit', () => appendFileSync(target, `${Object.keys(cache).join('\n')}\n`))
}
