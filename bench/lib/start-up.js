// Start-up timing shared by the benchmarks that time whole short processes (cli-startup, single-binary): every
// command runs once per round, round after round, so background load on the shared machine hits all of them alike.
import {figure} from './figures.js'

/**
 * The wall times of each command over `runs` rounds, after `warmups` rounds that are not kept; `commands` are
 * `{id, name, run}` where `run()` times one process and returns `{ms}`.
 */
export function interleavedSamples(commands, {warmups, runs}) {
  const samples = commands.map(() => [])
  for (let round = 0; round < warmups + runs; round++) {
    commands.forEach((command, index) => {
      const {ms} = command.run()
      if (round >= warmups) samples[index].push(ms)
    })
  }
  return samples
}

/** The figure `<benchmark>/<id>` of one command's wall times. */
export function startUpFigure(benchmark, command, samples, options = {}) {
  return figure({
    id: `${benchmark}/${command.id}`,
    name: command.name,
    unit: 'ms',
    better: 'lower',
    samples,
    ...options,
  })
}
