import {XMLParser, XMLValidator} from 'fast-xml-parser'
import {UnavailableError} from '../core/errors.js'
import {type Logger, silentLogger} from '../core/logger.js'
import {MAX_NESTING_DEPTH} from '../core/nesting.js'
import {type HttpClient, HttpError, looksLikeHtml} from '../http-client/index.js'
import {type AdapterSettings, isObject, type Json, UnexpectedShapeError} from './shared.js'

/** The HTML of an item's description (RSS `description`, `content:encoded`; Atom `content`, `summary`). */
export function feedDescription(item: FeedItem): string {
  const fields = item.fields
  return textOf(fields['content:encoded'] ?? fields.description ?? fields.content ?? fields.summary)
}

const FEED_ACCEPT = 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1'

/** One entry of an RSS 2.0, RSS 1.0 (RDF) or Atom feed, with the raw element for feed-specific fields. */
export interface FeedItem {
  title: string
  link: string
  /** pubDate (RSS 2.0), dc:date (RSS 1.0), published or updated (Atom), as written. */
  date: string
  fields: Json
}

interface Feed {
  title: string
  items: FeedItem[]
}

const parser = xmlParser(['rss.channel.item', 'rdf:RDF.item', 'feed.entry', 'feed.entry.link'])

/**
 * Element names that are part of every JavaScript object (`<__proto__>`): the parser refuses the whole document
 * at one of them, so they are renamed with RESERVED_MARK before it, and the entry holding one is skipped.
 */
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype'])
const RESERVED_MARK = 'reserved:'

/**
 * A parser of the XML a board answers with: `arrayPaths` are the elements that repeat (one of them is still a
 * list), attributes are kept as `@_name`, and values stay text. It stops at MAX_NESTING_DEPTH before building the
 * rest; parseXml matches its message.
 */
export function xmlParser(arrayPaths: readonly string[]): XMLParser {
  const repeated = new Set(arrayPaths)
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    // Job titles such as "2024" or "1e3" must stay text.
    parseTagValue: false,
    parseAttributeValue: false,
    isArray: (_name, jpath) => repeated.has(String(jpath)),
    maxNestedTags: MAX_NESTING_DEPTH,
    transformTagName: (name) => (RESERVED_NAMES.has(name) ? `${RESERVED_MARK}${name}` : name),
  })
}

/** The reserved element name an entry holds at any depth (the parser bounds the depth), if it holds one. */
function reservedNameIn(entry: unknown): string | undefined {
  const pending: unknown[] = [entry]
  while (pending.length > 0) {
    const value = pending.pop()
    if (Array.isArray(value)) for (const child of value) pending.push(child)
    else if (isObject(value)) {
      for (const [key, child] of Object.entries(value)) {
        if (key.startsWith(RESERVED_MARK)) return key.slice(RESERVED_MARK.length)
        pending.push(child)
      }
    }
  }
  return undefined
}

/**
 * The entries (`position`, `item`) that hold no reserved element name; the others are skipped, with one warning
 * that counts them and names what they held, so one hostile entry costs only itself.
 */
export function withoutReservedNames(entries: readonly Json[], noun: string, logger: Logger): Json[] {
  const kept: Json[] = []
  const names = new Set<string>()
  for (const entry of entries) {
    const name = reservedNameIn(entry)
    if (name === undefined) kept.push(entry)
    else names.add(name)
  }
  const skipped = entries.length - kept.length
  if (skipped > 0) {
    const held = skipped === 1 ? 'it holds an element' : 'they hold elements'
    logger.warning(`${skipped} ${noun}${skipped === 1 ? '' : 's'} skipped: ${held} named ${[...names].join(', ')}`)
  }
  return kept
}
const TOO_DEEP = 'Maximum nested tags exceeded'

/** The text of an element that may carry attributes (`<title type="html">…</title>`) or repeat. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number') return String(value)
  if (Array.isArray(value)) return textOf(value[0])
  if (isObject(value)) return textOf(value['#text'])
  return ''
}

function atomLink(value: unknown): string {
  const links = Array.isArray(value) ? value : [value]
  const candidates = links.filter(isObject)
  const alternate = candidates.find((link) => link['@_rel'] === undefined || link['@_rel'] === 'alternate')
  return textOf((alternate ?? candidates[0])?.['@_href'])
}

/** Ampersands that start no entity or character reference: ill-formed, but common in feeds and harmless here. */
const BARE_AMPERSAND = /&(?![A-Za-z][\w.-]*;|#\d+;|#x[\dA-Fa-f]+;)/g

/**
 * The parser is lenient: it returns the items it has read from a truncated or mis-nested document, so a feed cut
 * off mid-transfer would look like a shorter feed. Such a document is refused; bare ampersands are let through.
 */
function checkWellFormed(xml: string): void {
  const result = XMLValidator.validate(xml.replace(BARE_AMPERSAND, '&amp;'))
  if (result === true) return
  const {msg, line, col} = result.err
  throw new UnavailableError(`malformed XML: ${msg} (line ${line}, column ${col})`, {
    hint: 'the answer may have been cut off; if it stays broken, tell its owner or disable the source',
  })
}

/**
 * The document of an XML answer, by a parser of xmlParser: a malformed one fails, anything else (an HTML page,
 * JSON) is an unexpected shape, reported as not being `expected`.
 */
export function parseXml(xmlParserOf: XMLParser, xml: string, expected: string): Json {
  // XML starts with "<" from its first character on; JSON or plain text would only meet the XML checks' odder messages.
  const first = xml[xml.search(/[^\s\uFEFF]/)]
  if (first !== '<') {
    throw new UnexpectedShapeError(
      `${expected} (the answer ${first === undefined ? 'is empty' : `starts with ${JSON.stringify(first)}, not "<"`})`,
    )
  }
  // Parsed before the validator, which would walk and stack every level of a hostile document first; the parser
  // gives up at MAX_NESTING_DEPTH. Its other errors wait for the validator, whose messages say where.
  let document: unknown
  let parseError: Error | undefined
  try {
    document = xmlParserOf.parse(xml)
  } catch (error) {
    parseError = error as Error
    if (parseError.message === TOO_DEEP) {
      throw new UnavailableError(`XML nested deeper than ${MAX_NESTING_DEPTH} levels`, {
        hint: 'no board nests its elements so deeply; if it keeps sending it, disable the source',
      })
    }
  }
  checkWellFormed(xml)
  if (parseError) throw new UnexpectedShapeError(`${expected} (${parseError.message})`)
  if (!isObject(document)) throw new UnexpectedShapeError(expected)
  return document
}

/**
 * Parses an RSS or Atom document; a malformed one fails, anything else (an HTML page, JSON) is an unexpected shape.
 * An item holding a reserved element name is skipped, and `logger` says so.
 */
export function parseFeed(xml: string, logger: Logger = silentLogger): Feed {
  const document = parseXml(parser, xml, 'an RSS or Atom feed')
  const asItems = (value: unknown) => withoutReservedNames(feedEntries(value), 'item', logger)

  const rss = document.rss
  if (isObject(rss) && isObject(rss.channel)) {
    const channel = rss.channel
    return {
      title: textOf(channel.title),
      items: asItems(channel.item).map((fields) => ({
        title: textOf(fields.title),
        link: textOf(fields.link),
        date: textOf(fields.pubDate) || textOf(fields['dc:date']),
        fields,
      })),
    }
  }
  const rdf = document['rdf:RDF']
  if (isObject(rdf)) {
    return {
      title: textOf(isObject(rdf.channel) ? rdf.channel.title : ''),
      items: asItems(rdf.item).map((fields) => ({
        title: textOf(fields.title),
        link: textOf(fields.link),
        date: textOf(fields['dc:date']),
        fields,
      })),
    }
  }
  const atom = document.feed
  if (isObject(atom)) {
    return {
      title: textOf(atom.title),
      items: asItems(atom.entry).map((fields) => ({
        title: textOf(fields.title),
        link: atomLink(fields.link),
        date: textOf(fields.published) || textOf(fields.updated),
        fields,
      })),
    }
  }
  throw new UnexpectedShapeError('an RSS or Atom feed')
}

function feedEntries(value: unknown): Json[] {
  if (value === undefined || value === '') return []
  return (Array.isArray(value) ? value : [value]).filter(isObject)
}

/** GETs and parses a feed; an HTML page (an error page or a bot challenge) fails with a message saying so. */
export async function fetchFeed(
  http: HttpClient,
  url: string,
  settings: AdapterSettings,
  signal: AbortSignal,
  logger: Logger,
): Promise<Feed> {
  const xml = await http.getText(url, {signal, timeoutMs: settings.timeoutMs, logger, headers: {accept: FEED_ACCEPT}})
  if (looksLikeHtml(xml)) throw new HttpError('HTML instead of an RSS or Atom feed', {url})
  return parseFeed(xml, logger)
}
