// Module resolve hook for module-recorder.js (runs on Node's loader thread).
import {appendFileSync} from 'node:fs'

const target = process.env.JOBAGENT_BENCH_MODULES_FILE

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context)
  if (target) appendFileSync(target, `${result.url}\n`)
  return result
}
