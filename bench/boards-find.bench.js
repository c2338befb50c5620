// How fast `jobagent boards find` answers from the directory of boards jobagent ships (issue "Every employer's
// board"): a company's name and a careers URL, each looked up in the 45,708 boards offline, and a search of the
// directory, against `node -e 0`, `jobagent --version` and `jobagent boards list` (the same commands' start without
// the directory), interleaved round by round as cli-startup times its commands. Every probe would go to a closed
// local port, so a lookup that fell through to probing would fail the benchmark instead of reaching the network.
// Also the CPU time (user + system) of `boards find <name>` and of `boards list`, as each process counts it: their
// difference is what reading the directory and looking the name up cost. Reported, no target: the issue sets none.
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {createServer} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {figure} from './lib/figures.js'
import {BIN, ROOT, sized} from './lib/options.js'
import {timeNode} from './lib/processes.js'
import {reportBenchmark} from './lib/report.js'
import {interleavedSamples, startUpFigure} from './lib/start-up.js'

const WARMUPS = sized(2, 1)
const RUNS = sized(15, 5)
const NAME = 'Airbnb'

/** A port nothing listens on. */
async function closedPort() {
  const server = createServer()
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address()
  await new Promise((resolve) => server.close(resolve))
  return port
}

const home = mkdtempSync(join(tmpdir(), 'jobagent-bench-boards-find-'))
try {
  const env = {JOBAGENT_HOME: home, JOBAGENT_BOARDS_PROBE_URL: `http://127.0.0.1:${await closedPort()}`}
  const found = JSON.parse(timeNode([BIN, 'boards', 'find', NAME, '--json'], {env}).stdout)
  if (found.boards[0]?.from !== 'directory') throw new Error(`"${NAME}" was not answered from the directory`)
  const commands = [
    {id: 'node', name: '`node -e 0`', args: ['-e', '0']},
    {id: 'version', name: '`jobagent --version`', args: [BIN, '--version']},
    {id: 'list', name: '`jobagent boards list` (no directory)', args: [BIN, 'boards', 'list']},
    {id: 'name', name: `\`jobagent boards find ${NAME}\` (from the directory)`, args: [BIN, 'boards', 'find', NAME]},
    {
      id: 'url',
      name: '`jobagent boards find https://jobs.lever.co/palantir` (from the directory)',
      args: [BIN, 'boards', 'find', 'https://jobs.lever.co/palantir'],
    },
    {
      id: 'search',
      name: '`jobagent boards directory --search health`',
      args: [BIN, 'boards', 'directory', '--search', 'health'],
    },
  ].map((command) => ({...command, run: () => timeNode(command.args, {env})}))
  const samples = interleavedSamples(commands, {warmups: WARMUPS, runs: RUNS})
  const timed = (index, options) => startUpFigure('boards-find', commands[index], samples[index], options)
  const baseline = timed(0, {role: 'baseline'})

  const cpuFile = join(home, 'cpu.txt')
  const cpuOf = (args) => {
    timeNode(['--import', join(ROOT, 'bench/report-cpu-time.js'), BIN, ...args], {
      env: {...env, JOBAGENT_BENCH_CPU_FILE: cpuFile},
    })
    return Number(readFileSync(cpuFile, 'utf8'))
  }
  const cpu = {list: [], name: []}
  for (let round = 0; round < RUNS; round++) {
    cpu.list.push(cpuOf(['boards', 'list']))
    cpu.name.push(cpuOf(['boards', 'find', NAME]))
  }
  const cpuFigure = (id, name, samples) => figure({id: `boards-find/${id}`, name, unit: 'ms', better: 'lower', samples})
  reportBenchmark('boards-find', {
    figures: [
      baseline,
      ...[1, 2, 3, 4, 5].map((index) => timed(index, {baseline})),
      cpuFigure('list-cpu', 'CPU time of `jobagent boards list` (user + system)', cpu.list),
      cpuFigure('name-cpu', `CPU time of \`jobagent boards find ${NAME}\` (user + system)`, cpu.name),
    ],
    notes: [
      `Wall time of the whole process, ${RUNS} runs of each command after ${WARMUPS} warm-up(s), interleaved; ` +
        `CPU time over ${RUNS} more runs of each, interleaved.`,
      'Probes would go to a closed local port: every answer came from the directory, without a request.',
    ],
  })
} finally {
  rmSync(home, {recursive: true, force: true})
}
