import {BaseCommand} from '../../src/cli/base-command.js'
import {Args, Flags} from '../../src/cli/oclif.js'
import {fetchTelemetryHistory} from '../../src/shipments/app/shipment-client.js'
import {shipmentSlice} from '../../src/shipments/app/slice.js'
import {renderNextPage, renderTelemetryHistory} from '../../src/shipments/cli/render.js'
import {TELEMETRY_PAGE} from '../../src/shipments/core/telemetry-history.js'

export default class ShipmentHistory extends BaseCommand {
  static summary = "List a shipment's telemetry documents in time order"
  static description =
    'Reads one page of the documents of a shipment from the telemetry store (shipments.telemetry.url), oldest ' +
    'first, through the (id, time desc) index. --since is inclusive and --until exclusive (ISO 8601 times). A ' +
    `page holds --limit documents (1-${TELEMETRY_PAGE.maxLimit}, default ${TELEMETRY_PAGE.defaultLimit}); when ` +
    'more follow, stderr says which --cursor gives the next page. --json prints the same body as ' +
    'GET /shipments/{id}/telemetry. With --server, asks a running API instead of the stores. Exit 1 when the ' +
    'shipment is unknown or a store is unavailable, 2 for a bad id, time, limit or cursor.'
  static examples = [
    '<%= config.bin %> shipment history SHP-1001',
    '<%= config.bin %> shipment history SHP-1001 --since 2026-04-10T00:00:00Z --until 2026-04-11T00:00:00Z',
    '<%= config.bin %> shipment history SHP-1001 --limit 500 --json',
    '<%= config.bin %> shipment history SHP-1001 --cursor MjAyNi0wNC0xMFQwMDoyODoyMy4wMDBa',
  ]
  static enableJsonFlag = true
  static args = {id: Args.string({description: 'The shipment id.', required: true})}
  static flags = {
    since: Flags.string({description: 'Only documents recorded at or after this ISO 8601 time.', helpValue: 'TIME'}),
    until: Flags.string({description: 'Only documents recorded before this ISO 8601 time.', helpValue: 'TIME'}),
    limit: Flags.string({description: `Documents per page (default ${TELEMETRY_PAGE.defaultLimit}).`, helpValue: 'N'}),
    cursor: Flags.string({description: 'Where the next page starts, as the previous page said.'}),
    server: Flags.string({description: 'Base URL of a running jobagent API to ask instead of the stores.'}),
  }

  async run() {
    const {args, flags} = await this.parse(ShipmentHistory)
    const query = {since: flags.since, until: flags.until, limit: flags.limit, cursor: flags.cursor}
    const history = flags.server
      ? await fetchTelemetryHistory(flags.server, args.id, query, {token: this.env.JOBAGENT_API_TOKEN || undefined})
      : await (await this.context.openSlice(shipmentSlice)).history(args.id, query)
    this.log(renderTelemetryHistory(history, this.style))
    const next = renderNextPage(history)
    // On stderr, so --json on stdout stays one document.
    if (next) this.io.stderr.write(`${next}\n`)
    return history
  }
}
