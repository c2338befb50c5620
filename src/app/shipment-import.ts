import {readFile, stat} from 'node:fs/promises'
import {resolve} from 'node:path'
import {directoryGivenAsFile, isJobagentError, UnavailableError, ValidationError} from '../core/errors.js'
import type {Logger} from '../core/logger.js'
import {parseMetadataFile, parseTelemetryNdjson} from '../core/shipments/import-files.js'
import type {AppendOutcome, UpsertOutcome} from '../core/shipments/stores.js'
import {type ShipmentsConfig, shipmentWriters} from './shipments.js'

interface ShipmentImportOptions {
  metadataFile?: string
  telemetryFile?: string
}

export interface ShipmentImportOutcome {
  metadata?: UpsertOutcome & {file: string; store: string; rows: number; repeated_ids: number}
  telemetry?: AppendOutcome & {file: string; store: string; documents: number}
}

async function readInput(file: string): Promise<string> {
  try {
    if ((await stat(file)).isDirectory()) throw directoryGivenAsFile(file)
    return await readFile(file, 'utf8')
  } catch (error) {
    if (isJobagentError(error)) throw error
    const code = (error as NodeJS.ErrnoException).code
    const reason = code === 'ENOENT' ? 'no such file or directory' : (error as Error).message
    throw new UnavailableError(`cannot read ${file}: ${reason}`, {cause: error})
  }
}

/**
 * `jobagent shipment import`: both files are read and checked before anything is written, so a bad row in
 * either leaves every store untouched. Metadata is upserted by id; telemetry is appended, the same id and time
 * stored once. Each file is written in one transaction (batched statements) in the configured store.
 */
export async function importShipments(
  config: ShipmentsConfig,
  options: ShipmentImportOptions,
  logger: Logger,
): Promise<ShipmentImportOutcome> {
  if (!options.metadataFile && !options.telemetryFile) {
    throw new ValidationError('nothing to import', {hint: 'give --metadata FILE, --telemetry FILE or both'})
  }
  const log = logger.child('shipments.import')
  const metadataFile = options.metadataFile ? resolve(options.metadataFile) : undefined
  const telemetryFile = options.telemetryFile ? resolve(options.telemetryFile) : undefined
  const metadata = metadataFile
    ? parseMetadataFile(await readInput(metadataFile), metadataFile, config.metadata.id_column)
    : undefined
  const fields = {idField: config.telemetry.id_field, timeField: config.telemetry.time_field}
  const telemetry = telemetryFile
    ? parseTelemetryNdjson(await readInput(telemetryFile), telemetryFile, fields)
    : undefined

  const outcome: ShipmentImportOutcome = {}
  if (metadataFile && metadata) {
    const writer = shipmentWriters.metadata(config, log)
    try {
      const written = await writer.upsert(metadata.rows)
      outcome.metadata = {
        file: metadataFile,
        store: writer.kind,
        rows: metadata.rows.length,
        repeated_ids: metadata.repeated,
        ...written,
      }
      log.debug(`${metadataFile}: ${written.inserted} shipments added, ${written.updated} updated (${writer.kind})`)
    } finally {
      await writer.close()
    }
  }
  if (telemetryFile && telemetry) {
    const writer = shipmentWriters.telemetry(config, log)
    try {
      const written = await writer.append(telemetry)
      outcome.telemetry = {file: telemetryFile, store: writer.kind, documents: telemetry.length, ...written}
      log.debug(
        `${telemetryFile}: ${written.inserted} documents added, ${written.duplicates} already stored (${writer.kind})`,
      )
    } finally {
      await writer.close()
    }
  }
  return outcome
}
