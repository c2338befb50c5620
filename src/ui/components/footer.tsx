import {memo} from 'react'
import type {Mode, ViewName} from '../dashboard-state.js'
import {KEY_HELP} from '../keys.js'
import {paint, useColour} from '../theme.js'
import {Text} from './text.js'

const MODE_HINTS: Record<Exclude<Mode['kind'], 'browse'>, string> = {
  help: 'any key closes the help · q quits',
  stats: 'any key closes the statistics · q quits',
  filter: 'type to filter · Enter keep · Esc clear',
  'pick-status': '↑↓ j k choose · Enter confirm · 1-8 pick at once · Esc cancel',
  notes: 'type the notes · Enter save · Ctrl-U clear · Esc cancel',
  reason: 'type why (optional) · Enter dismiss · Ctrl-U clear · Esc keep the job',
  edit: 'type the field · Enter next (last saves) · ↑ back · Ctrl-U clear · Esc cancel',
  'confirm-remove': 'y remove (u brings it back) · any other key keeps it',
}

const SEPARATOR = '  '
const HINT_SEPARATOR = ' · '

/**
 * A prompt's hint in `width`: whole parts are left out from the last but one backwards, so the first (what to type)
 * and the last (how to get out) stay, and no word is cut.
 */
export function fitHint(hint: string, width: number): string {
  const parts = hint.split(HINT_SEPARATOR)
  while (parts.length > 2 && parts.join(HINT_SEPARATOR).length > width) parts.splice(-2, 1)
  return parts.join(HINT_SEPARATOR)
}

/** The keys that fit in one line, most useful first, shown in the order of the help. */
export function footerText(view: ViewName, width: number): string {
  const entries = KEY_HELP.filter((entry) => entry.footer && (!entry.view || entry.view === view))
  const chosen = new Set<(typeof entries)[number]>()
  let used = -SEPARATOR.length
  for (const entry of [...entries].sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99))) {
    const cost = SEPARATOR.length + (entry.footer?.length ?? 0)
    if (used + cost > width) continue
    chosen.add(entry)
    used += cost
  }
  return entries
    .filter((entry) => chosen.has(entry))
    .map((entry) => entry.footer)
    .join(SEPARATOR)
}

export const Footer = memo(function Footer({mode, view, width}: {mode: Mode['kind']; view: ViewName; width: number}) {
  const colour = useColour()
  return (
    <Text wrap="truncate-end" color={paint(colour, 'gray')}>
      {mode === 'browse' ? footerText(view, width) : fitHint(MODE_HINTS[mode], width)}
    </Text>
  )
})
