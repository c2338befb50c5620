import {BaseCommand} from '../../src/cli/base-command.js'
import {EXIT_FAILURE} from '../../src/cli/exit-codes.js'
import {Args, Flags} from '../../src/cli/oclif.js'
import {ValidationError} from '../../src/core/errors.js'
import {fetchUnifiedBatch, fetchUnifiedState} from '../../src/shipments/app/shipment-client.js'
import {shipmentSlice} from '../../src/shipments/app/slice.js'
import {renderMissingShipments, renderUnifiedBatch, renderUnifiedState} from '../../src/shipments/cli/render.js'

export default class ShipmentShow extends BaseCommand {
  static summary = 'Show the metadata, latest telemetry and freshness of one shipment or several'
  static description =
    "Reads the shipment's metadata row and its latest telemetry document from the configured stores " +
    '(shipments.metadata.url, shipments.telemetry.url) and merges them. --json prints the same body as ' +
    'GET /shipments/{id}/unified. Several ids are read in one batch (up to 500, one query per store): each ' +
    'shipment found is shown in the order given, the ids with no shipment are named on stderr, and --json prints ' +
    'the body of POST /shipments/unified, {shipments, missing}. With --server, asks a running API instead of the ' +
    'stores (sending JOBAGENT_API_TOKEN as a bearer token when it is set). Exit 1 when a shipment is unknown ' +
    '(after showing the others) or a store is unavailable. --watch shows one shipment again whenever it changes, ' +
    "until Ctrl-C (exit 0): read from the stores every second, or with --server followed on the server's event " +
    'stream (opened again when it drops); redrawn in place on a terminal, one line per change elsewhere, one JSON ' +
    'line per change with --json.'
  static examples = [
    '<%= config.bin %> shipment show SHP-1001',
    '<%= config.bin %> shipment show SHP-1001 --json',
    '<%= config.bin %> shipment show SHP-1001 SHP-1002 SHP-1003',
    '<%= config.bin %> shipment show SHP-1001 --server http://127.0.0.1:8080',
    '<%= config.bin %> shipment show SHP-1001 --watch',
    '<%= config.bin %> shipment show SHP-1001 --watch --server http://127.0.0.1:8080',
  ]
  static enableJsonFlag = true
  static strict = false
  static args = {
    id: Args.string({description: 'The shipment id; give several to read them in one batch.', required: true}),
  }
  static flags = {
    server: Flags.string({description: 'Base URL of a running jobagent API to ask instead of the stores.'}),
    watch: Flags.boolean({description: 'Show the shipment again whenever it changes, until Ctrl-C (one id only).'}),
  }

  async run() {
    const {argv, flags} = await this.parse(ShipmentShow)
    const ids = argv as string[]
    if (flags.watch) return this.watch(ids, flags.server)
    const remote = {token: this.env.JOBAGENT_API_TOKEN || undefined}
    if (ids.length === 1) {
      const id = ids[0] as string
      const state = flags.server
        ? await fetchUnifiedState(flags.server, id, remote)
        : await (await this.context.openSlice(shipmentSlice)).unified(id)
      this.log(renderUnifiedState(state, this.style))
      return state
    }
    const batch = flags.server
      ? await fetchUnifiedBatch(flags.server, ids, remote)
      : await (await this.context.openSlice(shipmentSlice)).unifiedBatch(ids)
    if (batch.shipments.length > 0) this.log(renderUnifiedBatch(batch, this.style))
    if (batch.missing.length > 0) {
      this.io.stderr.write(`${renderMissingShipments(batch.missing)}\n`)
      // Not this.exit(): under --json it would print a second document after the body.
      this.setExitCode(EXIT_FAILURE)
    }
    return batch
  }

  /** Follows one shipment until SIGINT or SIGTERM; returns nothing, so --json prints no document at the end. */
  private async watch(ids: string[], server: string | undefined): Promise<undefined> {
    const [id] = ids
    if (id === undefined || ids.length !== 1) {
      throw new ValidationError(`--watch follows one shipment (got ${ids.length} ids)`, {hint: 'give one id'})
    }
    // Loaded here: the watch display and the event-stream reader are for --watch only.
    const {watchShipment} = await import('../../src/shipments/cli/watch-display.js')
    await watchShipment(this.context, id, {
      server,
      json: this.jsonEnabled(),
      style: this.style,
      stdout: this.io.stdout,
      stderr: this.io.stderr,
    })
    return undefined
  }
}
