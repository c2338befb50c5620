import {EDITABLE, EDITABLE_FIELDS} from '../../core/applications/application.js'
import type {DashboardState} from '../dashboard-state.js'
import {paint, useColour} from '../theme.js'
import {Text} from './text.js'

const TONES = {info: undefined, success: 'green', error: 'red'} as const

/** The prompt being typed, the outcome of the last action, or where the selection is. */
export function MessageLine({state}: {state: DashboardState}) {
  const colour = useColour()
  const {mode, message} = state
  if (mode.kind === 'filter') {
    // The end of what is typed stays visible.
    return <Text wrap="truncate-start">{`/${state.views[state.view].text}█`}</Text>
  }
  if (mode.kind === 'notes') {
    const what = {
      track: `Notes (tracking as ${mode.status})`,
      change: `Notes for ${mode.status} (the current ones go to the history)`,
      edit: 'Notes',
    }[mode.purpose]
    return <Text wrap="truncate-start">{`${what}: ${mode.draft}█`}</Text>
  }
  if (mode.kind === 'reason') {
    return <Text wrap="truncate-start">{`Why dismiss ${mode.target.label}? (Enter skips): ${mode.draft}█`}</Text>
  }
  if (mode.kind === 'edit') {
    const field = EDITABLE_FIELDS[mode.step] ?? 'title'
    const where = `${mode.step + 1}/${EDITABLE_FIELDS.length}`
    return (
      <Text wrap="truncate-start">{`Edit ${mode.target.label} · ${EDITABLE[field].label} (${where}): ${mode.values[field]}█`}</Text>
    )
  }
  if (mode.kind === 'confirm-remove') {
    return (
      <Text wrap="truncate-end">{`Remove ${mode.target.label} from lists and stats? y removes · any other key keeps it`}</Text>
    )
  }
  if (message) {
    const tone = TONES[message.tone]
    // Up to two lines (the layout makes room); beyond that the middle goes, so a path keeps its file name.
    const room = 2 * state.size.columns - 2
    const text =
      message.text.length > room
        ? `${message.text.slice(0, room / 2 - 1)}…${message.text.slice(-(room / 2 - 1))}`
        : message.text
    return (
      <Text wrap="wrap" color={tone ? paint(colour, tone) : undefined}>
        {text}
      </Text>
    )
  }
  const list = state.lists[state.view]
  const total = state.data ? state.data[state.view].length : 0
  const position = list.length === 0 ? 'no rows' : `row ${state.views[state.view].index + 1} of ${list.length}`
  return (
    <Text wrap="truncate-end" color={paint(colour, 'gray')}>
      {list.length === total ? position : `${position} (filtered from ${total})`}
    </Text>
  )
}
