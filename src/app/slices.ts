/**
 * The slices plugged into jobagent (see slice.ts), in the order their config sections, routes and health checks
 * follow the job side's. This is the one module of the job side that imports a slice.
 */
import {shipmentSlice} from '../shipments/app/slice.js'
import type {Slice} from './slice.js'

export const SLICES = [shipmentSlice] as const

type Slices = (typeof SLICES)[number]

/** The sections of the config in force, one per slice, by its key. */
export type SliceConfigs = {
  [S in Slices as S['key']]: S extends Slice<string, never, infer Config, unknown, never> ? Config : never
}

/** What a caller of createHttpApp may set for each slice's routes, by its key. */
export type SliceSettings = {
  [S in Slices as S['key']]?: S extends Slice<string, never, unknown, unknown, infer Settings> ? Settings : never
}
