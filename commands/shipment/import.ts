import {BaseCommand} from '../../src/cli/base-command.js'
import {Flags} from '../../src/cli/oclif.js'
import {importShipments} from '../../src/shipments/app/shipment-import.js'
import {renderShipmentImport} from '../../src/shipments/cli/render.js'

export default class ShipmentImport extends BaseCommand {
  static summary = 'Import shipment metadata (CSV or JSON) and telemetry (NDJSON) into the configured stores'
  static description =
    'Metadata rows are upserted by id (shipments.metadata.id_column); a CSV needs a header row, a JSON file holds ' +
    'an array of objects. Telemetry is appended from NDJSON, one document per line with the id and time fields ' +
    '(shipments.telemetry.id_field, time_field); a document with an id and time already stored is stored once. ' +
    'Missing tables, collections and indexes are created. Both files are checked first: if any row is bad, the bad ' +
    'rows are listed with their line numbers and nothing is written.'
  static examples = [
    '<%= config.bin %> shipment import --metadata examples/shipments/metadata.csv --telemetry examples/shipments/telemetry.ndjson',
    '<%= config.bin %> shipment import --telemetry today.ndjson --json',
  ]
  static enableJsonFlag = true
  static flags = {
    metadata: Flags.string({description: 'CSV or JSON file of shipment metadata rows.', helpValue: 'FILE'}),
    telemetry: Flags.string({description: 'NDJSON file of telemetry documents.', helpValue: 'FILE'}),
  }

  async run() {
    const {flags} = await this.parse(ShipmentImport)
    const outcome = await importShipments(
      this.context.config.shipments,
      {metadataFile: flags.metadata, telemetryFile: flags.telemetry},
      this.logger,
    )
    this.log(renderShipmentImport(outcome))
    return outcome
  }
}
