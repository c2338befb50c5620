import type {Context} from 'hono'
import {type Version, versionTag} from '../core/version-tag.js'

/**
 * The validators of an answer: a weak ETag hashed from `version.parts` (weak, since parts of the body such as the
 * time it was made may differ between answers that mean the same) and Last-Modified where known.
 */
export function validatorHeaders(version: Version): {ETag: string; 'Last-Modified'?: string} {
  const tag = versionTag(version.parts)
  return version.lastModified !== undefined && Number.isFinite(version.lastModified)
    ? {ETag: tag, 'Last-Modified': new Date(version.lastModified).toUTCString()}
    : {ETag: tag}
}

/**
 * Answers a GET with `body` as JSON and its validators, or with 304, the validators and no body when the request's
 * If-None-Match holds the tag (or `*`).
 */
export function jsonWithValidators(c: Context, body: object, version: Version): Response {
  const headers = validatorHeaders(version)
  return matches(c.req.header('if-none-match'), headers.ETag) ? c.body(null, 304, headers) : c.json(body, 200, headers)
}

/** If-None-Match compares weakly (RFC 9110): `W/` is ignored on both sides; `*` matches any current answer. */
function matches(header: string | undefined, tag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  const opaque = tag.slice(2)
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque)
}
