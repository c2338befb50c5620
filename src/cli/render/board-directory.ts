import type {DirectoryListing} from '../../app/found-boards.js'
import {escapeControls} from '../../core/control-characters.js'
import type {Style} from '../style.js'
import {renderTable} from '../table.js'
import {renderBoardTable} from './boards.js'

const count = (value: number) => value.toLocaleString('en')

/**
 * `boards directory`: without a filter, the boards per ATS and how to list them; with one, the boards it matched
 * (source, ATS, company, link), each board's `sources` entry, and how many more matched than are shown.
 */
export function renderDirectory(
  listing: DirectoryListing,
  style: Style,
  options: {filtered: boolean; width?: number | undefined},
): string {
  if (!options.filtered) {
    const atsCount = listing.counts.filter((ats) => ats.boards > 0).length
    return [
      `jobagent's directory holds ${count(listing.total)} employers' boards on ${atsCount} ATSs:`,
      '',
      renderTable(
        listing.counts,
        [
          {header: 'ATS', value: (ats) => ats.type},
          {header: 'BOARDS', value: (ats) => count(ats.boards)},
        ],
        style.bold,
      ),
      '',
      'List the boards of one: jobagent boards directory --ats greenhouse',
      'Look for a company: jobagent boards directory --search "<name>" (or jobagent boards find "<name>")',
    ].join('\n')
  }
  const {ats, search} = listing.filter
  const filter = [ats ? `on ${ats}` : '', search === null ? '' : `matching "${search}"`].filter(Boolean).join(' ')
  if (listing.matched === 0) {
    const none = escapeControls(`No board of the directory ${filter}.`)
    // The directory holds a list of boards, not every company: the ATS hosts may still know one it lacks.
    return search === null
      ? none
      : `${none}\n${escapeControls(`Ask the ATS hosts for it: jobagent boards find ${JSON.stringify(search)}`)}`
  }
  const lines = [
    renderBoardTable(listing.boards, style, options.width),
    '',
    ...listing.boards.map((board) => `${board.name}: ${JSON.stringify(board.entry)}`),
  ]
  if (listing.more > 0) {
    lines.push(`… and ${count(listing.more)} more ${filter} (--limit ${listing.matched} lists them all)`)
  }
  lines.push('', 'Add a board to the config with: jobagent boards find <SOURCE> --add')
  return escapeControls(lines.join('\n'), {keepLineBreaks: true})
}
