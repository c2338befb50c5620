import {readFile, stat} from 'node:fs/promises'
import {basename, resolve} from 'node:path'
import {directoryGivenAsFile, isJobagentError, UnavailableError, ValidationError} from '../../core/errors.js'
import type {Logger} from '../../core/logger.js'
import {checkMetadataColumns, parseMetadataFile, parseTelemetryNdjson} from '../core/import-files.js'
import type {AppendOutcome, UpsertOutcome} from '../core/stores.js'
import {type ShipmentsConfig, shipmentWriters} from './shipments.js'

interface ShipmentImportOptions {
  metadataFile?: string
  telemetryFile?: string
}

export interface ShipmentImportOutcome {
  metadata?: UpsertOutcome & {file: string; store: string; rows: number; repeated_ids: number}
  /** `documents`: lines of the file; `repeated_in_file`: those repeating an earlier line's id and time, stored once. */
  telemetry?: AppendOutcome & {file: string; store: string; documents: number; repeated_in_file: number}
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
  const fields = {idField: config.telemetry.id_field, timeField: config.telemetry.time_field}
  const [metadata, telemetry] = await checkedTogether(
    [metadataFile, telemetryFile],
    async () =>
      metadataFile
        ? parseMetadataFile(await readInput(metadataFile), metadataFile, config.metadata.id_column)
        : undefined,
    async () =>
      telemetryFile ? parseTelemetryNdjson(await readInput(telemetryFile), telemetryFile, fields) : undefined,
  )

  if (metadataFile && metadata) {
    const {kind, limits} = shipmentWriters.metadataLimits(config)
    checkMetadataColumns(metadata.rows, metadataFile, kind, limits)
  }

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
      const written = await writer.append(telemetry.records)
      outcome.telemetry = {
        file: telemetryFile,
        store: writer.kind,
        documents: telemetry.records.length + telemetry.repeated,
        ...written,
        repeated_in_file: telemetry.repeated,
      }
      log.debug(
        `${telemetryFile}: ${written.inserted} documents added, ${written.duplicates} already stored, ` +
          `${telemetry.repeated} repeated in the file (${writer.kind})`,
      )
    } finally {
      await writer.close()
    }
  }
  return outcome
}

/**
 * Both files checked before either refusal is reported: with a bad row in each, the user learns about both at once.
 * One refusal passes as it is; two become one, each problem named with its file.
 */
async function checkedTogether<A, B>(
  files: readonly (string | undefined)[],
  first: () => Promise<A>,
  second: () => Promise<B>,
): Promise<[A, B]> {
  const [a, b] = await Promise.allSettled([first(), second()])
  if (a.status === 'fulfilled' && b.status === 'fulfilled') return [a.value, b.value]
  const refusals = [a, b].flatMap((result, index) =>
    result.status === 'rejected' && result.reason instanceof ValidationError
      ? [{error: result.reason, file: basename(files[index] ?? '')}]
      : [],
  )
  // Anything but two refusals of content (a missing file, say) is reported as it is, the first one first.
  if (refusals.length < 2) throw a.status === 'rejected' ? a.reason : (b as PromiseRejectedResult).reason
  const hints = refusals.flatMap(({error}) => (error.hint ? [error.hint] : []))
  throw new ValidationError(refusals.map(({error}) => error.message).join('; '), {
    details: refusals.flatMap(({error, file}) =>
      error.details.map((detail) => ({...detail, message: `${file}: ${detail.message}`})),
    ),
    ...(hints.length > 0 ? {hint: hints.join('; ')} : {}),
  })
}
