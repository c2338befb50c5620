import {Parser} from 'htmlparser2'
import {removeBidiControls} from '../control-characters.js'
import {cutText} from './board-limits.js'

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

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g
const SPACES = /[ \t\f\v\u00a0\u2000-\u200a\u202f\u205f\u3000]+/g

/**
 * A posting's HTML as plain text a person reads: tags removed, entities decoded, script and style content
 * dropped, paragraphs and headings separated by a blank line, `<br>` and table rows ending a line, list items on
 * lines of their own starting with "- ", runs of spaces folded, control and bidi characters removed, at most
 * DESCRIPTION_LIMIT characters. Plain text (no tags) passes through the same rules. Empty text is null.
 */
export function htmlToText(html: unknown): string | null {
  if (typeof html !== 'string' || html.trim() === '') return null
  const parts: string[] = []
  let hidden = 0
  // A list item whose text has not begun: a paragraph opening inside it (`<li><p>...`) stays on the item's line.
  let itemStarted = false
  const parser = new Parser(
    {
      onopentag(name) {
        if (HIDDEN.has(name)) hidden++
        else if (name === 'li') {
          parts.push('\n- ')
          itemStarted = true
        } else if (PARAGRAPHS.has(name) && !itemStarted) parts.push('\n\n')
        else if (LINES.has(name)) parts.push('\n')
      },
      onclosetag(name) {
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1)
        else if (PARAGRAPHS.has(name)) parts.push('\n\n')
        else if (name === 'td' || name === 'th') parts.push(' ')
      },
      ontext(text) {
        if (hidden > 0) return
        const folded = text.replace(/\s+/g, ' ')
        if (itemStarted && folded.trim() !== '') itemStarted = false
        parts.push(folded)
      },
    },
    {decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true},
  )
  parser.write(html)
  parser.end()
  return limited(tidyLines(parts.join('')))
}

/** Text a board gives without markup (a plain-text field, a file): its line breaks kept, the rest as htmlToText. */
export function plainToText(text: unknown): string | null {
  if (typeof text !== 'string') return null
  return limited(tidyLines(text.replace(/\r\n?/g, '\n')))
}

function limited(text: string): string | null {
  return text === '' ? null : cutText(text, DESCRIPTION_LIMIT)
}

/** Folded spaces, trimmed lines, at most one blank line in a row, nothing at either end. */
function tidyLines(text: string): string {
  const lines = removeBidiControls(text.replace(CONTROLS, ''))
    .split('\n')
    .map((line) => line.replace(SPACES, ' ').trim())
  const kept: string[] = []
  for (const line of lines) {
    if (line === '' && (kept.length === 0 || kept[kept.length - 1] === '')) continue
    // A list marker whose item held no text is no line.
    if (line === '-') continue
    kept.push(line)
  }
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop()
  return kept.join('\n')
}
