import {batchedSink, LineLogger, logLevelFor, TimestampCache} from '../src/app/line-logger.js'
import {SLICES} from '../src/app/slices.js'
import {BaseCommand} from '../src/cli/base-command.js'
import {Flags} from '../src/cli/oclif.js'

export default class Serve extends BaseCommand {
  static summary = 'Serve the REST API, its docs page and the web page (default http://127.0.0.1:8080)'
  static description =
    'Runs until SIGINT (Ctrl-C) or SIGTERM, then stops accepting connections, lets requests in flight ' +
    'finish (up to 10 s), closes event streams and the database and exits 0. ' +
    'With --workers N (or auto) a primary process runs N workers on the one port: it replaces a worker that dies ' +
    '(waiting 1 s, doubling to 30 s while they keep dying), drains them all on SIGTERM/SIGINT and on SIGHUP ' +
    'starts a fresh worker before draining each old one, so no request is refused. One access log line per request goes to stderr. ' +
    'Address: --host/--port, else JOBAGENT_HOST/JOBAGENT_PORT, else config server.host/server.port. ' +
    'Without a token only requests for 127.0.0.1, [::1] and localhost (and the names in config server.allowed_hosts) ' +
    'are answered. A non-loopback host needs JOBAGENT_API_TOKEN (16 characters or more); with a token set, every route except /health, /metrics and the ' +
    'pages needs "Authorization: Bearer <token>". API docs: /docs (OpenAPI document: /openapi.json).'
  static examples = [
    '<%= config.bin %> serve',
    '<%= config.bin %> serve --port 9000',
    '$ JOBAGENT_API_TOKEN=$(openssl rand -hex 32) <%= config.bin %> serve --host 0.0.0.0',
    '<%= config.bin %> serve --cors-origin http://localhost:5173',
    '$ JOBAGENT_SHIPMENT_METADATA_URL=postgres://db/fleet JOBAGENT_SHIPMENT_TELEMETRY_URL=postgres://db/fleet <%= config.bin %> serve --only shipments',
    '<%= config.bin %> serve --workers auto',
  ]
  static flags = {
    port: Flags.integer({description: 'Port to listen on (0 picks a free one).', min: 0, max: 65535}),
    host: Flags.string({description: 'Address to listen on; non-loopback needs JOBAGENT_API_TOKEN.'}),
    'cors-origin': Flags.string({
      description: 'Origin allowed to call the API from a browser (e.g. http://localhost:5173); repeatable.',
      multiple: true,
    }),
    only: Flags.string({
      description:
        'Serve this part alone: "shipments" is the shipment routes with health, metrics and docs, and no tracker, ' +
        'job search or web page (an instance behind a load balancer, configured by JOBAGENT_* variables).',
      options: SLICES.map((slice) => slice.key),
    }),
    workers: Flags.string({
      description:
        'Worker processes on the one port: a number, or auto (one per core). A dead worker is replaced; SIGHUP reloads them one at a time.',
      default: '1',
    }),
  }

  async run() {
    const {flags} = await this.parse(Serve)
    const context = this.openContext({overrides: {server: {host: flags.host, port: flags.port}}})
    // Imported here so the other commands never load hono, zod-openapi and prom-client.
    const {serveWorkers} = await import('../src/http/workers.js')
    // The access log (a line per request) is written once per event-loop turn rather than once per line.
    const {host, port, allowed_hosts, log_level} = context.serverConfig()
    const level = logLevelFor({verbose: flags.verbose, quiet: flags.quiet, env: this.env, configured: log_level})
    await serveWorkers(
      context,
      {
        host,
        port,
        allowedHosts: allowed_hosts,
        httpLogger: new LineLogger('jobagent', batchedSink(this.io.stderr), level, new TimestampCache(context.clock)),
        apiToken: context.env.JOBAGENT_API_TOKEN || undefined,
        corsOrigins: flags['cors-origin'] ?? [],
        ...(flags.only ? {only: flags.only} : {}),
      },
      flags.workers,
    )
  }
}
