import type {ToolAnnotations} from '@modelcontextprotocol/sdk/types.js'
import {z} from 'zod'

/** A tool that only reads the tracker and the stored jobs. */
export const READ: ToolAnnotations = {readOnlyHint: true, destructiveHint: false, openWorldHint: false}

/** A tool that adds to or changes the tracker, keeping what it replaces in the history: worth asking the person first. */
export const WRITE: ToolAnnotations = {readOnlyHint: false, destructiveHint: false, openWorldHint: false}

/**
 * The fields a client may rely on; every other field of the record comes along (the JSON Schema allows more
 * properties), as the CLI's --json and the API give them.
 */
export const jobOutput = z.looseObject({id: z.int(), title: z.string(), company: z.string(), url: z.string()})

export const applicationOutput = z.looseObject({
  id: z.int(),
  title: z.string(),
  company: z.string(),
  url: z.string(),
  status: z.string(),
  notes: z.string(),
})
