// How fast the tracker commands start, against the floor of starting Node itself (issue "Foundation"):
// `node -e 0`, `jobagent --version`, `jobagent status` over 1,000 tracked applications and `jobagent jobs` over a
// last run of 1,000 jobs, timed in the same run and interleaved so background load hits all of them alike.
// Every command runs against a home with a config file of a realistic size (sources, notification URLs, a search
// section as large as a real profile's), so reading and checking the config is part of what is timed.
// Target: each at most 3x `node -e 0`. Also `jobagent jobs` over a last run of 10,000 jobs of real board answers
// scored for a profile, with the readings a run keeps: target at most 1 s (issue "Matching from open data"). Also checks that `jobagent status` loads none of the front-end packages
// (ink, react, hono): tracker commands must not pay for the dashboard or the server.
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {figure} from './lib/figures.js'
import {BIN, ROOT, sized} from './lib/options.js'
import {timeNode} from './lib/processes.js'
import {reportBenchmark} from './lib/report.js'
import {seedScoredRun, seedTrackerAndLastRun} from './lib/seed.js'
import {interleavedSamples, startUpFigure} from './lib/start-up.js'

const RECORDS = 1000
const SCORED_JOBS = 10_000
const SCORED_TARGET_MS = 1000
const WARMUPS = sized(2, 1)
const RUNS = sized(15, 5)
const RATIO_TARGET = 3
const FORBIDDEN = [
  'ink',
  'react',
  'react-dom',
  'react-reconciler',
  'hono',
  '@hono/node-server',
  '@hono/zod-openapi',
  'dist/src/ui',
  'dist/src/http',
]

/** A config file as a user who has set jobagent up would have: boards, channels and a full search section. */
function userConfig() {
  const words = (prefix, count) => Array.from({length: count}, (_, n) => `${prefix}${n}`)
  return {
    mode: 'production',
    search: {
      tags: ['typescript', 'node', 'react', 'postgres', ...words('tag', 26)],
      keywords: ['backend', 'platform', 'api', ...words('keyword', 37)],
      exclude_keywords: ['php', 'wordpress', ...words('exclude', 18)],
      locations: ['remote', 'europe', 'berlin', 'germany', ...words('city', 16)],
      remote_only: true,
      max_age_days: 14,
      company_block_list: ['Acme, Inc.', ...words('Company ', 29)],
    },
    sources: [
      {type: 'remoteok'},
      {type: 'remotive'},
      {type: 'arbeitnow'},
      {type: 'jobicy'},
      {type: 'himalayas'},
      {type: 'weworkremotely'},
      {type: 'greenhouse', boards: ['gitlab', 'stripe', {slug: 'datadog', company: 'Datadog'}]},
      {type: 'lever', sites: ['netflix', {slug: 'spotify', company: 'Spotify'}]},
      {type: 'ashby', boards: ['linear']},
      {type: 'hackernews', enabled: false},
      {type: 'rss', url: 'https://example.org/jobs.rss', name: 'example', timeout_seconds: 20},
    ],
    notify: {
      urls: ['ntfy://my-job-alerts', 'https://hooks.slack.com/services/T0/B0/SECRET', 'log://'],
      max_items: 30,
    },
    run: {healthcheck_url: 'https://hc-ping.example/uuid'},
    server: {host: '127.0.0.1', port: 8080, allowed_hosts: ['jobagent.lan']},
  }
}

/**
 * What `jobagent status` loaded: the package names (with scope) of its modules under node_modules, and `dist/src/ui`
 * or `dist/src/http` for modules of jobagent's own dashboard or server, where the build's bundle of Ink lives too.
 */
function loadedPackages(env, home) {
  const file = join(home, 'modules.txt')
  timeNode(['--import', join(ROOT, 'bench/module-recorder.js'), BIN, 'status'], {
    env: {...env, JOBAGENT_BENCH_MODULES_FILE: file},
  })
  const packages = new Set()
  let sawCommand = false
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line) ?? /\/(dist\/src\/(?:ui|http))\//.exec(line)
    if (match?.[1]) packages.add(match[1])
    if (line.endsWith('/dist/commands/status.js')) sawCommand = true
  }
  // A recorder that saw nothing would make the check pass vacuously. oclif is bundled into dist by the build, so
  // the command's own module stands for "the recorder saw jobagent's modules".
  if (!sawCommand || !packages.has('better-sqlite3')) {
    throw new Error('the module recorder saw neither the status command nor better-sqlite3; the check did not run')
  }
  return packages
}

const home = mkdtempSync(join(tmpdir(), 'jobagent-bench-startup-'))
try {
  const env = {JOBAGENT_HOME: home}
  await seedTrackerAndLastRun(home, RECORDS)
  writeFileSync(join(home, 'config.json'), JSON.stringify(userConfig(), null, 2), {mode: 0o600})
  const listed = JSON.parse(timeNode([BIN, 'status', '--json'], {env}).stdout)
  const jobs = JSON.parse(timeNode([BIN, 'jobs', '--json'], {env}).stdout)
  if (listed.length !== RECORDS || jobs.length !== RECORDS) {
    throw new Error(`seeded ${RECORDS} of each, found ${listed.length} applications and ${jobs.length} jobs`)
  }
  const scoredHome = join(home, 'scored')
  const relevance = join(ROOT, 'test/fixtures/relevance')
  const profile = JSON.parse(readFileSync(join(relevance, 'profiles.json'), 'utf8'))['platform-nl']
  await seedScoredRun(scoredHome, SCORED_JOBS, profile, JSON.parse(readFileSync(join(relevance, 'jobs.json'), 'utf8')))
  const scoredEnv = {JOBAGENT_HOME: scoredHome}
  const packages = loadedPackages(env, home)
  const loadedForbidden = FORBIDDEN.filter((name) => packages.has(name))

  const records = RECORDS.toLocaleString('en')
  const commands = [
    {id: 'node', name: '`node -e 0`', args: ['-e', '0']},
    {id: 'version', name: '`jobagent --version`', args: [BIN, '--version']},
    {id: 'status', name: `\`jobagent status\` (${records} applications)`, args: [BIN, 'status']},
    {id: 'jobs', name: `\`jobagent jobs\` (${records} jobs)`, args: [BIN, 'jobs']},
    {
      id: 'jobs-scored',
      name: `\`jobagent jobs\` (${SCORED_JOBS.toLocaleString('en')} jobs scored for a profile)`,
      args: [BIN, 'jobs'],
      env: scoredEnv,
    },
  ].map((command) => ({...command, run: () => timeNode(command.args, {env: command.env ?? env})}))
  const samples = interleavedSamples(commands, {warmups: WARMUPS, runs: RUNS})
  const timed = (index, options) => startUpFigure('cli-startup', commands[index], samples[index], options)
  const baseline = timed(0, {role: 'baseline'})
  const target = {of: 'ratio', op: '<=', limit: RATIO_TARGET}
  reportBenchmark('cli-startup', {
    figures: [
      baseline,
      timed(1, {baseline, target}),
      timed(2, {baseline, target}),
      timed(3, {baseline, target}),
      timed(4, {baseline, target: {of: 'median', op: '<=', limit: SCORED_TARGET_MS}}),
      figure({
        id: 'cli-startup/status-front-end-packages',
        name: 'front-end packages loaded by `jobagent status`',
        unit: 'count',
        better: 'lower',
        samples: [loadedForbidden.length],
        target: {of: 'median', op: '<=', limit: 0},
      }),
    ],
    notes: [
      `Wall time of the whole process, ${RUNS} runs of each command after ${WARMUPS} warm-up(s), interleaved.`,
      'Every command reads a config file with 11 sources, 3 notification URLs and 140 search terms.',
      `Front-end packages checked: ${FORBIDDEN.join(', ')}.`,
      ...(loadedForbidden.length > 0 ? [`\`jobagent status\` loaded ${loadedForbidden.join(', ')}.`] : []),
    ],
    details: {status_packages: [...packages].sort()},
  })
} finally {
  rmSync(home, {recursive: true, force: true})
}
