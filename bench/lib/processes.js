// Child processes of the benchmarks: timed commands and servers. Every server started here is killed when the
// benchmark exits, however it exits, so a failed run leaves no process holding a port or a core.
import {spawn, spawnSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {BIN, ROOT} from './options.js'

const running = new Set()
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/** Runs `node <args>` to completion and returns its wall time (spawn to exit) and stdout; throws if it fails. */
export function timeNode(args, options = {}) {
  return timeProgram(process.execPath, args, options)
}

/** Runs `program <args>` (the single executable, say) as timeNode runs node. */
export function timeProgram(program, args, {env = {}, cwd = ROOT} = {}) {
  const started = performance.now()
  const result = spawnSync(program, args, {
    cwd,
    env: {...process.env, NO_COLOR: '1', ...env},
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  const ms = performance.now() - started
  if (result.status !== 0) throw new Error(`${program} ${args.join(' ')} exited ${result.status}: ${result.stderr}`)
  return {ms, stdout: result.stdout}
}

// `jobagent serve` logs `Listening on http://host:port` to stderr; bench/shipments-server.js prints
// `listening <port> <label>` to stdout.
const LISTENING = /Listening on (http:\/\/[\d.]+:\d+)|listening (\d+) (.*)\n/

/** Starts `node <args>` and resolves once it says where it listens: {url, label, stop}. */
export function startServer(args, env = {}) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {...process.env, NO_COLOR: '1', ...env},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  child.once('exit', () => running.delete(child))
  let output = ''
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk
      const match = LISTENING.exec(output)
      if (!match) return
      // From now on the output (an access log, say) is drained unread, as a terminal would take it.
      child.stdout.off('data', onData)
      child.stderr.off('data', onData)
      child.stdout.resume()
      child.stderr.resume()
      child.off('exit', onEarlyExit)
      resolve({
        url: match[1] ?? `http://127.0.0.1:${match[2]}`,
        label: match[3] ?? '',
        stop: () => stop(child),
      })
    }
    const onEarlyExit = (code) => reject(new Error(`node ${args.join(' ')} exited ${code} before listening: ${output}`))
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', onEarlyExit)
  })
}

function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  return exited
}

/**
 * One `jobagent <args>` with `--json` in its own process, its home at `home`: wall time, peak RSS (KiB), CPU time
 * (user + system, ms) and the JSON it printed; rejects when it exits other than 0.
 */
export function measureJobagent(home, args, env = {}) {
  const rss = join(home, 'rss.txt')
  const cpu = join(home, 'cpu.txt')
  const preload = [
    '--import',
    join(ROOT, 'bench/report-peak-memory.js'),
    '--import',
    join(ROOT, 'bench/report-cpu-time.js'),
  ]
  const started = performance.now()
  const child = spawn(process.execPath, [...preload, BIN, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      JOBAGENT_HOME: home,
      HOME: home,
      NO_COLOR: '1',
      JOBAGENT_BENCH_RSS_FILE: rss,
      JOBAGENT_BENCH_CPU_FILE: cpu,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      const ms = performance.now() - started
      if (code !== 0) return reject(new Error(`jobagent ${args[0]} exited ${code}: ${stderr.slice(-2000)}`))
      resolve({
        ms,
        rssKiB: Number(readFileSync(rss, 'utf8')),
        cpuMs: Number(readFileSync(cpu, 'utf8')),
        summary: JSON.parse(stdout),
      })
    }),
  )
}
