/** JSON Schema of config.json (validated by conf on every read and write). Every key is optional. */

import {SOURCE_TYPES} from '../core/jobs/source-config.js'

const stringList = {type: 'array', items: {type: 'string'}} as const

/** A board, site or company slug, optionally with the company name to show (Lever and Ashby carry none). */
const boardList = {
  type: 'array',
  items: {
    anyOf: [
      {type: 'string', minLength: 1},
      {
        type: 'object',
        properties: {slug: {type: 'string', minLength: 1}, company: {type: 'string'}},
        required: ['slug'],
        additionalProperties: false,
      },
    ],
  },
} as const

export const sourceSchema = {
  type: 'object',
  properties: {
    type: {enum: SOURCE_TYPES},
    name: {type: 'string', minLength: 1},
    url: {type: 'string', minLength: 1},
    enabled: {type: 'boolean'},
    timeout_seconds: {type: 'number', exclusiveMinimum: 0, maximum: 600},
    max_pages: {type: 'integer', minimum: 1, maximum: 100},
    boards: boardList,
    sites: boardList,
    region: {enum: ['global', 'eu']},
    path: {type: 'string', minLength: 1},
  },
  required: ['type'],
  additionalProperties: false,
} as const

const storeUrl = {type: 'string', pattern: '^(sqlite|postgres|postgresql|mongodb|mongodb\\+srv)://'} as const

export const configProperties = {
  mode: {enum: ['production', 'development']},
  search: {
    type: 'object',
    properties: {
      tags: stringList,
      keywords: stringList,
      exclude_keywords: stringList,
      locations: stringList,
      remote_only: {type: 'boolean'},
      max_age_days: {anyOf: [{type: 'null'}, {type: 'number', exclusiveMinimum: 0}]},
      company_block_list: stringList,
    },
    additionalProperties: false,
  },
  sources: {type: 'array', items: sourceSchema},
  notify: {
    type: 'object',
    properties: {urls: stringList, max_items: {type: 'integer', minimum: 1, maximum: 1000}},
    additionalProperties: false,
  },
  run: {
    type: 'object',
    properties: {healthcheck_url: {anyOf: [{type: 'null'}, {type: 'string', pattern: '^https?://'}]}},
    additionalProperties: false,
  },
  server: {
    type: 'object',
    properties: {
      host: {type: 'string', minLength: 1},
      port: {type: 'integer', minimum: 0, maximum: 65535},
      // Names a browser may use in the Host header of a server without a token: a DNS name or an IP, no port.
      allowed_hosts: {
        type: 'array',
        items: {type: 'string', pattern: '^([A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*|\\[[0-9A-Fa-f:.]+\\])$'},
      },
    },
    additionalProperties: false,
  },
  shipments: {
    type: 'object',
    properties: {
      metadata: {
        type: 'object',
        properties: {
          url: storeUrl,
          table: {type: 'string', minLength: 1},
          id_column: {type: 'string', minLength: 1},
          pool_size: {type: 'integer', minimum: 1, maximum: 100},
          timeout_ms: {type: 'integer', minimum: 1},
        },
        additionalProperties: false,
      },
      telemetry: {
        type: 'object',
        properties: {
          url: storeUrl,
          collection: {type: 'string', minLength: 1},
          id_field: {type: 'string', minLength: 1},
          time_field: {type: 'string', minLength: 1},
          pool_size: {type: 'integer', minimum: 1, maximum: 100},
          timeout_ms: {type: 'integer', minimum: 1},
        },
        additionalProperties: false,
      },
      stale_after_seconds: {type: 'number', minimum: 0},
    },
    additionalProperties: false,
  },
} as const

interface SchemaNode {
  type?: string
  properties?: Record<string, SchemaNode>
  items?: SchemaNode
  enum?: readonly unknown[]
  anyOf?: readonly SchemaNode[]
}

const ROOT_NODE: SchemaNode = {properties: configProperties as Record<string, SchemaNode>}

/** The schema of a dotted config path (`sources.0.type`), for messages that list what is allowed there. */
export function schemaAt(path: string): SchemaNode | undefined {
  let node: SchemaNode | undefined = ROOT_NODE
  for (const segment of path === '' ? [] : path.split('.')) {
    if (!node) return undefined
    const objectLike: SchemaNode | undefined = node.properties
      ? node
      : node.anyOf?.find((option) => option.properties !== undefined)
    node = /^\d+$/.test(segment) ? node.items : objectLike?.properties?.[segment]
  }
  return node
}

/** Keys of `value` (the object at `path` of a config) that the schema does not know. */
export function unknownKeysAt(value: unknown, path: string): string[] {
  const node = schemaAt(path)
  const known = node?.properties ?? node?.anyOf?.find((option) => option.properties)?.properties
  if (!known || typeof value !== 'object' || value === null || Array.isArray(value)) return []
  return Object.keys(value).filter((key) => !Object.hasOwn(known, key))
}
