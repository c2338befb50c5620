// Preloaded with --import into a benchmarked process: writes its peak resident set size (KiB) on exit.
import {writeFileSync} from 'node:fs'

const target = process.env.JOBAGENT_BENCH_RSS_FILE
if (target) process.on('exit', () => writeFileSync(target, String(process.resourceUsage().maxRSS)))
