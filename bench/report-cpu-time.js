// Preloaded with --import into a benchmarked process: writes the CPU time it used (user + system, ms) on exit.
import {writeFileSync} from 'node:fs'

const target = process.env.JOBAGENT_BENCH_CPU_FILE
if (target) {
  process.on('exit', () => {
    const {user, system} = process.cpuUsage()
    writeFileSync(target, String((user + system) / 1000))
  })
}
