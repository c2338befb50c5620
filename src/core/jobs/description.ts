import {Parser} from 'htmlparser2'
import {removeControls} from '../control-characters.js'
import {foldWhiteSpace} from '../text-runs.js'
import {cutText} from './board-limits.js'

/**
 * The version of the rules htmlToText converts HTML by. Text cached from an earlier conversion (SqliteDescriptionCache) is
 * used only while this is unchanged: change it with any change to what htmlToText returns. test/core/cache-versions.test.ts
 * fails when the output on the board fixtures changes and this does not.
 */
export const HTML_RULES_VERSION = 3

/** Converts a posting's HTML to text, as htmlToText does; an implementation may remember what it converted before. */
export type HtmlToText = (html: unknown) => string | null

/** The longest description a job keeps, in characters; longer text is cut at this length. */
export const DESCRIPTION_LIMIT = 20_000

/** Elements whose start and end break a paragraph: the text before and after them stays apart by a blank line. */
const PARAGRAPHS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'main',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'ul',
])
/** Elements that end a line without a blank line after it. */
const LINES = new Set(['br', 'tr'])
/** Elements whose content is no text a person reads. */
const HIDDEN = new Set(['script', 'style', 'template', 'noscript', 'head', 'title', 'svg', 'iframe', 'object'])

/**
 * Plain text written as a page is read: the words of each text node with their white space folded (in HTML a line
 * break in the text is a space), and between them what the elements passed since the last words ask for. A
 * paragraph or two line breaks (`<br><br>`) make a blank line, one line break a new line, a list item a new line
 * starting with "- ". Breaks before the first words and after the last are dropped, and so is an item without text.
 */
class TextWriter {
  private readonly out: string[] = []
  private started = false
  /** 0: no break since the last words, 1: a new line, 2: a blank line. */
  private pending: 0 | 1 | 2 = 0
  private lineBreaks = 0
  private item = false
  private space = false

  paragraph(): void {
    this.pending = 2
    this.item = false
  }

  lineBreak(): void {
    this.lineBreaks++
    this.pending = Math.max(this.pending, this.lineBreaks >= 2 ? 2 : 1) as 1 | 2
  }

  listItem(): void {
    this.item = true
    this.pending = Math.max(this.pending, 1) as 1 | 2
  }

  /** A table cell ends: its text and the next cell's stay apart. */
  cell(): void {
    this.space = true
  }

  words(text: string): void {
    // Half a surrogate pair (`&#xD800;` decodes to one) is no text; HTML5 reads it as U+FFFD.
    const wellFormed = text.isWellFormed() ? text : text.toWellFormed()
    const clean = removeControls(wellFormed)
    const folded = foldWhiteSpace(clean)
    const words = folded.trim()
    if (words === '') {
      if (folded !== '') this.space = true
      return
    }
    if (this.started && this.pending > 0) this.out.push(this.pending === 2 ? '\n\n' : '\n')
    if (this.item) this.out.push('- ')
    else if (this.started && this.pending === 0 && (this.space || folded.startsWith(' '))) this.out.push(' ')
    this.out.push(words)
    this.started = true
    this.pending = 0
    this.lineBreaks = 0
    this.item = false
    this.space = folded.endsWith(' ')
  }

  text(): string {
    return this.out.join('')
  }
}

/**
 * Text that still holds HTML after a read: a closing tag or line break of the elements postings are written with,
 * or an entity. It is HTML escaped once more than it should be (Greenhouse escapes its content, and employers'
 * feeds pass it on so through other boards), not a mention of a tag such as "<canvas>" in prose.
 */
const ESCAPED_MARKUP =
  /<\/(?:p|div|span|li|ul|ol|h[1-6]|strong|b|em|i|u|a|table|tr|td|th|section|blockquote|pre|code)\s*>|<br\s*\/?>|&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/i
/** A block element's start tag: what lays a text out as HTML rather than by its own line breaks. */
const BLOCK_TAG = /<(?:p|div|li|ul|ol|h[1-6]|table|tr|dl|dd|dt|section|article|blockquote|pre|header|footer)\b/i
/** Passes enough for HTML escaped three times over; more is no posting a board sends. */
const MAX_PASSES = 4

/**
 * A posting's HTML as plain text a person reads: tags removed, entities decoded, script and style content
 * dropped, paragraphs and headings separated by a blank line, `<br>` and table rows ending a line, list items on
 * lines of their own starting with "- ", white space folded, control and bidi characters removed, at most
 * DESCRIPTION_LIMIT characters. HTML escaped once or more (`&lt;p&gt;`) is converted again until no markup or entity
 * is left. Text without block elements keeps its own line breaks; plain text passes through the same rules. Empty
 * text is null.
 */
export function htmlToText(html: unknown): string | null {
  if (typeof html !== 'string' || html.trim() === '') return null
  // Text without a block element is text as typed, with at most a <br> or a bold word (RemoteOK's): its own line
  // breaks are kept, as a <br> each, where HTML would fold them into spaces and run a posting's lists into one line.
  let text = htmlPass(BLOCK_TAG.test(html) ? html : html.replace(/\r\n?|\n/g, '<br>'))
  for (let passes = 1; passes < MAX_PASSES && ESCAPED_MARKUP.test(text); passes++) {
    // The line breaks of the passes so far are kept as breaks: the next pass folds white space.
    const again = htmlPass(text.replace(/\n/g, '<br>'))
    if (again === text) break
    text = again
  }
  return limited(text)
}

/**
 * The open elements a pass keeps track of. The parser's bookkeeping of open elements costs time in their number at
 * every tag, so markup nested deeper (no posting is; browsers stop nesting at 512) would take time in the square of
 * its length. Beyond this depth the elements open so far end, as at the end of the text, and the rest is converted
 * afresh: every word is kept, in order.
 */
const MAX_HTML_DEPTH = 256

/** One pass of HTML to text, by the rules of htmlToText. */
function htmlPass(html: string): string {
  const writer = new TextWriter()
  let hidden = 0
  // A list item whose text has not begun: a paragraph opening inside it (`<li><p>...`) stays on the item's line.
  let itemStarted = false
  // The names of the open elements, innermost last, as the parser closes them.
  const open: string[] = []
  const closeElement = (name: string) => {
    if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1)
    else if (PARAGRAPHS.has(name)) writer.paragraph()
    else if (name === 'td' || name === 'th') writer.cell()
  }
  let rest = html
  for (;;) {
    let resumeAt = -1
    const parser: Parser = new Parser(
      {
        onopentag(name) {
          open.push(name)
          if (HIDDEN.has(name)) hidden++
          else if (name === 'li') {
            writer.listItem()
            itemStarted = true
          } else if (PARAGRAPHS.has(name) && !itemStarted) writer.paragraph()
          else if (LINES.has(name)) writer.lineBreak()
          if (open.length > MAX_HTML_DEPTH && resumeAt === -1) {
            // The parser's last event ended at this tag's `>`; the rest of the text starts after it.
            resumeAt = parser.endIndex + 1
            parser.pause()
          }
        },
        onclosetag(name) {
          open.pop()
          closeElement(name)
        },
        ontext(text) {
          if (hidden > 0) return
          if (itemStarted && text.trim() !== '') itemStarted = false
          writer.words(text)
        },
      },
      {decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true},
    )
    parser.write(rest)
    if (resumeAt === -1) {
      parser.end()
      return writer.text()
    }
    for (let name = open.pop(); name !== undefined; name = open.pop()) closeElement(name)
    rest = rest.slice(resumeAt)
  }
}

/**
 * Text a board gives without markup (a plain-text field, a file): each of its lines as htmlToText reads words, a
 * line break kept as one, two or more as a blank line.
 */
export function plainToText(text: unknown): string | null {
  if (typeof text !== 'string') return null
  const writer = new TextWriter()
  for (const line of text.split(/\r\n?|\n/)) {
    writer.words(line)
    writer.lineBreak()
  }
  return limited(writer.text())
}

function limited(text: string): string | null {
  return text === '' ? null : cutText(text, DESCRIPTION_LIMIT)
}
