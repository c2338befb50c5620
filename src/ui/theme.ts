import {createContext, useContext} from 'react'

/**
 * Colours for the dashboard. Chalk (under Ink) does not read NO_COLOR, so the command decides with the CLI's rule
 * (src/cli/style.ts) and, without colour, components pass no colour, background or dim props at all.
 */
interface Theme {
  colour: boolean
}

export const ThemeContext = createContext<Theme>({colour: false})

export function useColour(): boolean {
  return useContext(ThemeContext).colour
}

const STATUS_COLOURS: Record<string, string> = {
  new: 'green',
  saved: 'yellow',
  applied: 'cyan',
  interviewing: 'magenta',
  offer: 'green',
  accepted: 'greenBright',
  rejected: 'red',
  withdrawn: 'gray',
  ghosted: 'gray',
  closed: 'gray',
}

/** The colour of a status word, or undefined without colour. */
export function statusColour(colour: boolean, status: string): string | undefined {
  return colour ? STATUS_COLOURS[status] : undefined
}

export function paint(colour: boolean, name: string): string | undefined {
  return colour ? name : undefined
}
