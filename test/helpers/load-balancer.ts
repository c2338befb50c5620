import {type ChildProcess, spawn, spawnSync} from 'node:child_process'
import {writeFileSync} from 'node:fs'
import {connect, createServer} from 'node:net'
import {join} from 'node:path'

/** The HAProxy of Debian's package, or undefined when it is not installed. */
export function haproxyProgram(): string | undefined {
  for (const candidate of ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy']) {
    if (spawnSync(candidate, ['-v']).status === 0) return candidate
  }
  const found = spawnSync('sh', ['-c', 'command -v haproxy'], {encoding: 'utf8'})
  return found.status === 0 ? found.stdout.trim() : undefined
}

/** A port of 127.0.0.1 nothing listens on right now (the kernel's pick, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address() as {port: number}
      server.close(() => resolve(port))
    })
  })
}

/**
 * The configuration docs/SHIPMENTS.md recommends for instances of `serve --only shipments`: readiness checks on
 * /health/ready every 500 ms (200 ms while a server changes state; down after 2 failures, up after 2 passes), a lookup that finds its instance gone is
 * retried on another (GET is idempotent), event streams held open by `timeout tunnel`; each answer names the
 * instance that served it in X-Served-By.
 */
export function haproxyConfig(
  port: number,
  servers: readonly {name: string; port: number}[],
  statsSocket?: string,
): string {
  return [
    'global',
    '  maxconn 512',
    ...(statsSocket ? [`  stats socket ${statsSocket} mode 600 level operator`] : []),
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 30s',
    '  timeout server 30s',
    // A readiness check on a busy machine may take longer than the interval between checks.
    '  timeout check 2s',
    '  timeout tunnel 1h',
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response response-timeout',
    'frontend shipments',
    `  bind 127.0.0.1:${port}`,
    '  default_backend instances',
    'backend instances',
    '  balance roundrobin',
    '  option httpchk',
    // HTTP/1.1 with a Host: without a token the instances answer only requests for 127.0.0.1 and localhost.
    '  http-check send meth GET uri /health/ready ver HTTP/1.1 hdr Host 127.0.0.1',
    '  http-check expect status 200',
    '  http-response set-header X-Served-By %[srv_name]',
    '  default-server inter 500ms fastinter 200ms fall 2 rise 2',
    ...servers.map((server) => `  server ${server.name} 127.0.0.1:${server.port} check`),
    '',
  ].join('\n')
}

export interface RunningHaproxy {
  url: string
  child: ChildProcess
  stop(): Promise<void>
}

/** HAProxy in the foreground on `config`, written to `dir`; checked first, so a bad config fails with its reason. */
export async function startHaproxy(
  program: string,
  dir: string,
  config: string,
  port: number,
): Promise<RunningHaproxy> {
  const file = join(dir, 'haproxy.cfg')
  writeFileSync(file, config)
  const checked = spawnSync(program, ['-c', '-q', '-f', file], {encoding: 'utf8'})
  if (checked.status !== 0) throw new Error(`haproxy refused its configuration: ${checked.stdout}${checked.stderr}`)
  const child = spawn(program, ['-db', '-f', file], {stdio: ['ignore', 'ignore', 'pipe']})
  let stderr = ''
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const ended = new Promise<void>((resolve) => child.on('close', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await ended
  }
  const url = `http://127.0.0.1:${port}`
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`haproxy exited ${child.exitCode}: ${stderr}`)
    const listening = await fetch(`${url}/health/live`).then(
      () => true,
      () => false,
    )
    if (listening) return {url, child, stop}
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  await stop()
  throw new Error(`haproxy did not listen on ${url}: ${stderr}`)
}

/** A backend's counters from HAProxy's stats socket: connection retries and redispatches to another server. */
export function backendRetries(socket: string, backend: string): Promise<{retries: number; redispatches: number}> {
  return new Promise((resolve, reject) => {
    const client = connect(socket)
    let text = ''
    client.setTimeout(2000, () => client.destroy(new Error('no answer from the haproxy stats socket')))
    client.on('data', (chunk) => {
      text += chunk
    })
    client.on('error', reject)
    client.on('end', () => {
      const [header = '', ...rows] = text.split('\n')
      const columns = header.replace(/^# /, '').split(',')
      const row = rows.map((line) => line.split(',')).find((cells) => cells[0] === backend && cells[1] === 'BACKEND')
      const at = (name: string) => Number(row?.[columns.indexOf(name)] ?? Number.NaN)
      resolve({retries: at('wretr'), redispatches: at('wredis')})
    })
    client.write('show stat\n')
  })
}
