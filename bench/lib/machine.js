// Facts about the machine and the code a run measured, recorded with its figures: a figure from another CPU,
// Node version, commit or a loaded machine is not the same figure.
import {spawnSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {arch, availableParallelism, cpus, loadavg, release, totalmem, type} from 'node:os'
import {ROOT} from './options.js'

function git(...args) {
  const result = spawnSync('git', args, {cwd: ROOT, encoding: 'utf8'})
  return result.status === 0 ? result.stdout.trim() : null
}

/** The distribution's name where the system says it (Linux), then the kernel. */
function operatingSystem() {
  let distribution = ''
  try {
    distribution = /^PRETTY_NAME="?([^"\n]*)/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? ''
  } catch {
    // Not Linux: the kernel line says enough.
  }
  const kernel = `${type()} ${release()} ${arch()}`
  return distribution ? `${distribution}, ${kernel}` : kernel
}

/** Load average (1, 5, 15 min): above 0 means other work competed for the cores. */
export function loadAverage() {
  return loadavg().map((value) => Number(value.toFixed(2)))
}

export function machineFacts() {
  const status = git('status', '--porcelain')
  return {
    date: new Date().toISOString(),
    cpu_model: cpus()[0]?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
    total_memory_mb: Math.round(totalmem() / 2 ** 20),
    os: operatingSystem(),
    node: process.version,
    git_commit: git('rev-parse', 'HEAD'),
    // Uncommitted changes mean the commit alone does not say what was measured.
    git_dirty: status === null ? null : status.length > 0,
    load_average_start: loadAverage(),
  }
}
