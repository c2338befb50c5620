import {type Version, versionTag} from '../../core/version-tag.js'
import type {UnifiedState} from './unified-state.js'

/**
 * What a unified state is made of: the metadata row, the latest document and the stores they came from, not
 * generated_at nor the freshness counted from it; it last changed when its latest document was recorded.
 */
export function stateVersion(state: UnifiedState): Version {
  return {
    parts: [state.shipment_id, state.metadata, state.telemetry, state.sources],
    ...(state.telemetry ? {lastModified: Date.parse(state.telemetry.recorded_at)} : {}),
  }
}

/** The tag of a unified state: its ETag over HTTP, and how a watcher tells that it changed. */
export function stateTag(state: UnifiedState): string {
  return versionTag(stateVersion(state).parts)
}
