import {fetchUnifiedState} from '../../src/app/shipment-client.js'
import {BaseCommand} from '../../src/cli/base-command.js'
import {Args, Flags} from '../../src/cli/oclif.js'
import {renderUnifiedState} from '../../src/cli/render/shipments.js'

export default class ShipmentShow extends BaseCommand {
  static summary = 'Show the metadata, latest telemetry and freshness of one shipment'
  static description =
    "Reads the shipment's metadata row and its latest telemetry document from the configured stores " +
    '(shipments.metadata.url, shipments.telemetry.url) and merges them. --json prints the same body as ' +
    'GET /shipments/{id}/unified. With --server, asks a running API instead of the stores (sending ' +
    'JOBAGENT_API_TOKEN as a bearer token when it is set). Exit 1 when the shipment is unknown or a store is unavailable.'
  static examples = [
    '<%= config.bin %> shipment show SHP-1001',
    '<%= config.bin %> shipment show SHP-1001 --json',
    '<%= config.bin %> shipment show SHP-1001 --server http://127.0.0.1:8080',
  ]
  static enableJsonFlag = true
  static args = {id: Args.string({description: 'The shipment id.', required: true})}
  static flags = {
    server: Flags.string({description: 'Base URL of a running jobagent API to ask instead of the stores.'}),
  }

  async run() {
    const {args, flags} = await this.parse(ShipmentShow)
    const state = flags.server
      ? await fetchUnifiedState(flags.server, args.id, {token: process.env.JOBAGENT_API_TOKEN || undefined})
      : await (await this.context.openShipments()).unified(args.id)
    this.log(renderUnifiedState(state, this.style))
    return state
  }
}
