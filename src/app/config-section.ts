/**
 * What a section of config.json is written with, for the job side's sections and the slices' alike: the schema of
 * the whole file (config-schema.ts) is made of them, so every section is checked, described and refused in the
 * same words.
 */

import type * as ZodMini from 'zod/mini'
import {ConfigurationError} from '../core/errors.js'
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

/** A section's place (`metadata.table`) set by an environment variable. */
type VariablePlaces = Readonly<Record<string, string>>

/**
 * The section's keys that environment variables set, shaped like the section, each value checked by the section's
 * own schema (a number-like text is read as a number where the key takes one) and refused under the variable's
 * name, without echoing the value (a store URL may carry a password).
 */
export function sectionFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  schema: ZodMini.ZodMiniType,
  places: VariablePlaces,
): Record<string, unknown> {
  const layer: Record<string, unknown> = {}
  for (const [name, place] of Object.entries(places)) {
    const raw = env[name]
    if (raw === undefined || raw === '') continue
    const keys = place.split('.')
    const shaped = (value: unknown) => keys.reduceRight<unknown>((inner, key) => ({[key]: inner}), value)
    const candidates = /^-?\d+(\.\d+)?$/.test(raw.trim()) ? [raw, Number(raw)] : [raw]
    const accepted = candidates.find((value) => schema.safeParse(shaped(value)).success)
    if (accepted === undefined) {
      const issue = schema.safeParse(shaped(raw)).error?.issues[0]
      throw new ConfigurationError(`${name} is not valid: ${issue?.message ?? 'refused'}`, {
        hint: `set ${name} to a valid value, or unset it to use the config file's or the default`,
      })
    }
    let target = layer
    for (const key of keys.slice(0, -1)) {
      target[key] ??= {}
      target = target[key] as Record<string, unknown>
    }
    target[keys.at(-1) as string] = accepted
  }
  return layer
}
