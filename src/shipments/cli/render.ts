import type {Style} from '../../cli/style.js'
import {renderTable} from '../../cli/table.js'
import {escapeControls as shown} from '../../core/control-characters.js'
import type {ShipmentImportOutcome} from '../app/shipment-import.js'
import type {TelemetryHistory} from '../core/telemetry-history.js'
import type {UnifiedBatch, UnifiedState} from '../core/unified-state.js'

/** A stored value as one line: the stores are outside data, so their names and values are shown escaped. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '-'
  return shown(typeof value === 'object' ? JSON.stringify(value) : String(value))
}

function fields(entries: [string, unknown][], width: number): string[] {
  return entries.map(([key, value]) => `  ${shown(key).padEnd(width)}${cell(value)}`)
}

/** `4 min 10 s`, `2 h 5 min`, `3 d 1 h`: the two largest units are enough to judge freshness. */
export function formatAge(seconds: number): string {
  const units: [string, number][] = [
    ['d', 86_400],
    ['h', 3600],
    ['min', 60],
    ['s', 1],
  ]
  const parts: string[] = []
  let rest = seconds
  for (const [name, size] of units) {
    const count = Math.floor(rest / size)
    if (count > 0 || (name === 's' && parts.length === 0)) parts.push(`${count} ${name}`)
    rest -= count * size
    if (parts.length === 2) break
  }
  return parts.join(' ')
}

/** The three sections of `jobagent shipment show`: metadata, latest telemetry, freshness. */
export function renderUnifiedState(state: UnifiedState, style: Style): string {
  const {freshness, telemetry} = state
  const metadata = Object.entries(state.metadata)
  const latest: [string, unknown][] = telemetry
    ? [['recorded_at', telemetry.recorded_at], ...Object.entries(telemetry.payload)]
    : []
  // One column width for all three sections, so the values line up down the page.
  const width = Math.max(12, ...[...metadata, ...latest].map(([key]) => shown(key).length + 2))
  const lines = [
    style.bold(`Shipment ${shown(state.shipment_id)}`),
    '',
    style.bold(`Metadata (${shown(state.sources.metadata)})`),
  ]
  lines.push(...fields(metadata, width))
  lines.push('', style.bold(`Latest telemetry (${shown(state.sources.telemetry)})`))
  lines.push(...(telemetry ? fields(latest, width) : ['  none yet']))
  const age = freshness.age_seconds === null ? '' : ` (${formatAge(freshness.age_seconds)} ago)`
  const verdict = freshness.stale ? style.yellow('stale') : style.green('fresh')
  lines.push(
    '',
    style.bold('Freshness'),
    ...fields([['last seen', `${freshness.last_seen_at ?? 'never'}${age}`]], width),
    // Styled after the stored values are escaped: the verdict's colour is ours, not outside text.
    `  ${'status'.padEnd(width)}${verdict} (stale after ${formatAge(freshness.stale_after_seconds)})`,
  )
  return lines.join('\n')
}

/**
 * One line for a change seen by `jobagent shipment show ID --watch` off a terminal: when it was read, and the
 * metadata fields and latest document that differ from the state before.
 */
export function renderShipmentChange(previous: UnifiedState, next: UnifiedState): string {
  const parts = [next.generated_at, shown(next.shipment_id)]
  const keys = [...new Set([...Object.keys(previous.metadata), ...Object.keys(next.metadata)])]
  const changed = keys.filter((key) => JSON.stringify(previous.metadata[key]) !== JSON.stringify(next.metadata[key]))
  if (changed.length > 0) {
    parts.push(`metadata ${changed.map((key) => `${shown(key)}=${cell(next.metadata[key])}`).join(' ')}`)
  }
  if (JSON.stringify(previous.telemetry) !== JSON.stringify(next.telemetry)) {
    const {telemetry} = next
    const payload = telemetry
      ? Object.entries(telemetry.payload).map(([key, value]) => `${shown(key)}=${cell(value)}`)
      : []
    parts.push(telemetry ? `telemetry ${cell(telemetry.recorded_at)} ${payload.join(' ')}`.trimEnd() : 'telemetry none')
  }
  // After a failure to read, the same state read again says that the shipment can be read again.
  if (parts.length === 2) parts.push('unchanged')
  return parts.join('  ')
}

/** `jobagent shipment show ID ID ...`: each shipment found, in the order asked, one blank line apart. */
export function renderUnifiedBatch(batch: UnifiedBatch, style: Style): string {
  return batch.shipments.map((state) => renderUnifiedState(state, style)).join('\n\n')
}

/** The ids of a batch that name no shipment, for stderr: one line each, as a single lookup names its id. */
export function renderMissingShipments(missing: readonly string[]): string {
  return missing.map((id) => `no shipment with id ${shown(JSON.stringify(id))}`).join('\n')
}

/** `jobagent shipment history`: one line per document, oldest first, its payload as compact JSON. */
export function renderTelemetryHistory(history: TelemetryHistory, style: Style): string {
  if (history.telemetry.length === 0) return `No telemetry for shipment ${shown(history.shipment_id)} in this window`
  return renderTable(
    history.telemetry,
    [
      {header: 'RECORDED AT', value: (document) => document.recorded_at},
      {header: 'PAYLOAD', value: (document) => JSON.stringify(document.payload), fill: true},
    ],
    style.bold,
  )
}

/** Where the next page starts, for stderr: the same command with --cursor. */
export function renderNextPage(history: TelemetryHistory): string | undefined {
  if (history.next_cursor === null) return undefined
  return `${history.count} documents shown; more follow: add --cursor ${history.next_cursor} for the next page`
}

export function renderShipmentImport(outcome: ShipmentImportOutcome): string {
  const lines: string[] = []
  const {metadata, telemetry} = outcome
  if (metadata) {
    const repeated =
      metadata.repeated_ids > 0 ? `; ${counted(metadata.repeated_ids, 'repeated id')}, the last row of each kept` : ''
    lines.push(
      `Metadata: ${counted(metadata.rows, 'shipment')} from ${shown(metadata.file)} into ${shown(metadata.store)} ` +
        `(${metadata.inserted} added, ${metadata.updated} updated${repeated})`,
    )
  }
  if (telemetry) {
    const repeated =
      telemetry.repeated_in_file > 0
        ? `; ${counted(telemetry.repeated_in_file, 'repeat')} of an earlier line of the file, stored once`
        : ''
    lines.push(
      `Telemetry: ${counted(telemetry.documents, 'document')} from ${shown(telemetry.file)} into ` +
        `${shown(telemetry.store)} (${telemetry.inserted} added, ${telemetry.duplicates} already stored${repeated})`,
    )
  }
  return lines.join('\n')
}

/** `1 document`, `2 documents`. */
function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
