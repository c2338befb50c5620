import {mkdtemp, rm} from 'node:fs/promises'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {SourceConfig} from '../core/jobs/source-config.js'
import type {Logger} from '../core/logger.js'
import type {RunSummary} from '../core/run/agent-run.js'
import {runAgent} from './agent.js'
import type {Env} from './config.js'
import {AppContext} from './context.js'
import {type FileSet, shippedFiles} from './shipped-files.js'

/** The sample boards: real responses of each board, captured once and shipped in `demo/boards/`. */
const DEMO_BOARDS: readonly {file: string; source: (base: string) => SourceConfig}[] = [
  {file: 'remoteok.json', source: (base) => ({type: 'remoteok', url: base})},
  {file: 'remotive.json', source: (base) => ({type: 'remotive', url: base})},
  {file: 'arbeitnow.json', source: (base) => ({type: 'arbeitnow', url: base, max_pages: 1})},
  {file: 'jobicy.json', source: (base) => ({type: 'jobicy', url: base})},
  {file: 'himalayas.json', source: (base) => ({type: 'himalayas', url: base, max_pages: 1})},
  {file: 'weworkremotely.xml', source: (base) => ({type: 'weworkremotely', url: `${base}/remote-jobs.rss`})},
  {file: 'greenhouse.json', source: (base) => ({type: 'greenhouse', url: base, boards: ['gitlab']})},
]

interface DemoRun {
  summary: RunSummary
  /** Where the demo kept its data; removed afterwards unless kept. */
  data_dir: string
  kept: boolean
  /** One line: what to do next. */
  next_step: string
}

/** A shipped demo file; each is part of every build, so a missing one is a broken build. */
function demoFile(demo: FileSet, name: string): Buffer {
  const body = demo.read(name)
  if (!body) throw new Error(`the demo's ${name} is missing from this build of jobagent`)
  return body
}

/**
 * Serves each sample board under `/<file name>/` on 127.0.0.1, whatever path and query the adapter asks for,
 * so the real adapters parse real answers without any network.
 */
async function serveBoards(demo: FileSet): Promise<{server: Server; sources: SourceConfig[]}> {
  const bodies = new Map<string, {body: Buffer; type: string}>()
  for (const {file} of DEMO_BOARDS) {
    const type = file.endsWith('.xml') ? 'application/rss+xml; charset=utf-8' : 'application/json; charset=utf-8'
    bodies.set(file.replace(/\.\w+$/, ''), {body: demoFile(demo, `boards/${file}`), type})
  }
  const server = createServer((request, response) => {
    const board = bodies.get(/^\/([^/?]+)/.exec(request.url ?? '')?.[1] ?? '')
    if (!board) {
      response.writeHead(404, {'content-type': 'text/plain'}).end('no such sample board')
      return
    }
    response.writeHead(200, {'content-type': board.type, 'content-length': board.body.length}).end(board.body)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const {port} = server.address() as AddressInfo
  const sources = DEMO_BOARDS.map(({file, source}) => source(`http://127.0.0.1:${port}/${file.replace(/\.\w+$/, '')}`))
  return {server, sources}
}

/**
 * `jobagent run --demo`: the whole run (search, deduplication, comparison with a tracker, notification to the
 * log) against sample boards served by this process, in a temporary data dir holding a few sample
 * applications. The user's config, data, channels and dead-man's switch are never read or written.
 */
export async function runDemo(
  options: {logger: Logger; env: Env; keep: boolean; mode?: string | undefined},
  runOptions: Parameters<typeof runAgent>[1],
): Promise<DemoRun> {
  const demo = shippedFiles('demo')
  // The temporary directory of the environment the command was given (TMPDIR), as os.tmpdir() reads it.
  const dataDir = await mkdtemp(join(options.env.TMPDIR || tmpdir(), 'jobagent-demo-'))
  const {server, sources} = await serveBoards(demo)
  const context = new AppContext({
    // Only the demo's own directory: no user config file, and no JOBAGENT_* variable reaches the demo.
    env: {...withoutJobagentVariables(options.env), JOBAGENT_HOME: dataDir},
    overrides: {
      ...(options.mode ? {mode: options.mode} : {}),
      sources,
      notify: {urls: ['log://']},
      run: {healthcheck_url: null},
    },
    logger: options.logger,
    boardsViaProxy: false,
  })
  try {
    // The sample applications go through the tracker's own import of a JSON file.
    const applications = demoFile(demo, 'applications.json').toString('utf8')
    await (await context.openTrackerFiles()).importText(applications, 'applications.json', {update: false})
    const summary = await runAgent(context, runOptions)
    const next = options.keep
      ? `The demo's data is in ${dataDir}: look at it with JOBAGENT_HOME=${dataDir} jobagent jobs.`
      : 'Your own data was not touched.'
    return {
      summary,
      data_dir: dataDir,
      kept: options.keep,
      next_step:
        `Demo finished: ${summary.jobs_found} jobs on ${sources.length} sample boards, ${summary.new_jobs} new. ${next} ` +
        'Next: choose your boards (jobagent config set sources ..., see jobagent help sources), then run ' +
        'jobagent run and list the jobs with jobagent jobs.',
    }
  } finally {
    await context.close()
    await new Promise((resolve) => server.close(resolve))
    if (!options.keep) await rm(dataDir, {recursive: true, force: true})
  }
}

function withoutJobagentVariables(env: Env): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('JOBAGENT_')))
}
