/**
 * The dashboard's keys: one list for the footer, the `?` help panel and the README. Each description fits the help
 * of an 80-column terminal (58 characters after the keys), so the smallest common terminal shows it whole.
 */
interface KeyHelp {
  keys: string
  description: string
  /** The footer's words for the key; keys without one are only in the help. */
  footer?: string
  /** Lower numbers keep their place in the footer when the terminal is narrow. */
  rank?: number
  /** Where the key applies; the footer leaves out keys of the other view. */
  view?: 'jobs' | 'applications'
}

export const KEY_HELP: readonly KeyHelp[] = [
  {keys: '↑ ↓  j k', footer: '↑↓ move', rank: 11, description: 'Move the selection'},
  {keys: 'PgUp PgDn Home End', description: 'Move one page; go to the first or last row'},
  {keys: 'Tab', footer: 'Tab view', rank: 7, description: 'Switch between Jobs and Applications'},
  {keys: '/', footer: '/ find', rank: 5, description: 'Filter by title, company, location, source, notes or URL'},
  {keys: 'f F', footer: 'f filter', rank: 6, description: 'Cycle the status filter forwards or backwards'},
  {keys: 'Enter', footer: '⏎ details', rank: 3, description: 'Show or hide the details (and status history)'},
  {
    keys: 'a',
    footer: 'a track',
    rank: 2,
    view: 'jobs',
    description: 'Track the selected job: pick a status, add notes',
  },
  {
    keys: 'l d u',
    footer: 'l like  d dismiss',
    rank: 8,
    view: 'jobs',
    description: 'Like or dismiss (hide) the job; u takes the last one back',
  },
  {
    keys: 's',
    footer: 's status',
    rank: 2,
    description: 'Change the status and notes (the old go to the history)',
  },
  {keys: 'n', footer: 'n notes', rank: 8, description: 'Edit the notes of the selected application'},
  {
    keys: 'E x u',
    footer: 'E edit  x remove',
    rank: 9,
    view: 'applications',
    description: 'Edit the application field by field; x removes, u restores',
  },
  {keys: 'o', footer: 'o open', rank: 9, description: 'Open the posting in the browser (or show its URL)'},
  {keys: 'e', footer: 'e export', rank: 10, description: 'Export all applications to CSV and show the path'},
  {keys: 't', footer: 't stats', rank: 12, description: 'Show the funnel statistics (as jobagent stats)'},
  {keys: 'r', footer: 'r run', rank: 4, description: 'Run a search now (a live line per board), then reload'},
  {keys: 'Esc', description: 'Close the details or a prompt; clear the filters'},
  {keys: '?', footer: '? help', rank: 0, description: 'Show or hide this list'},
  {keys: 'q  Ctrl-C', footer: 'q quit', rank: 0, description: 'Quit and restore the terminal'},
]
