/**
 * What a section of config.json is written with, for the job side's sections and the slices' alike: the schema of
 * the whole file (config-schema.ts) is made of them, so every section is checked, described and refused in the
 * same words.
 */

import type * as ZodMini from 'zod/mini'
import * as z from '../core/zod-mini.js'

/**
 * Examples of what a place of the file accepts, kept on the schema's own nodes: a refusal shows the shape a key
 * takes with one (`search.min_salary must be an object like {"amount": 70000, "currency": "EUR"}`). Where a node
 * has none, its default or its structure gives one (see exampleOf in config-schema.ts).
 */
export const examples = z.registry<{example: unknown}>()

/** The schema with an example of a value it accepts, typed by the schema so it cannot be of another kind. */
export function withExample<S extends ZodMini.ZodMiniType>(schema: S, example: ZodMini.input<S>): S {
  examples.add(schema, {example})
  return schema
}

/** A text that is not empty. */
export const text = () => z.string().check(z.minLength(1))

/** A section of the file: every key optional, unknown keys refused, its defaults filled in when it is left out. */
export const section = <Shape extends ZodMini.core.$ZodShape>(shape: Shape) =>
  z.prefault(z.strictObject(shape), {} as never)
