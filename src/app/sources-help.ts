import {boardKind, boardListKey, requiredKeys, SOURCE_TYPES} from '../core/jobs/source-config.js'
import {DEFAULT_SOURCES} from './config-schema.js'

/**
 * `jobagent help sources`: the job boards a run can search and what each entry of `sources` needs, from the checks
 * the config goes through, so it holds for the build that prints it. It works where docs/SOURCES.md is not at hand
 * (the single executable, a machine offline); that file has each board's details.
 */
export function sourcesHelp(): string {
  const defaults = DEFAULT_SOURCES.map((source) => source.type)
  const width = Math.max(...SOURCE_TYPES.map((type) => type.length)) + 2
  const rows = SOURCE_TYPES.map((type) => {
    const list = boardListKey(type)
    const slug = boardKind(type)?.slugForm ?? '<slug>'
    const needs = requiredKeys(type).map((key) => (key === list ? `${key}: ["${slug}", ...]` : key))
    return `  ${type.padEnd(width)}${needs.length > 0 ? needs.join(', ') : '-'}`
  })
  return [
    'The job boards a run searches: the "sources" list of the config',
    '',
    'USAGE',
    `  Without a sources list jobagent searches ${defaults.join(', ')}.`,
    '  A list replaces that default, so name every board you want:',
    '',
    `  $ jobagent config set sources '[{"type":"remoteok"},{"type":"greenhouse","boards":["gitlab"]}]'`,
    '  $ jobagent boards find "Acme Corp" --add    # finds the company\'s boards and adds them',
    '',
    '  Every entry takes "type" and may take "name", "url" (a mirror of the board), "enabled", "timeout_seconds"',
    '  and "max_pages" (the boards that page). A board list names slugs, or {"slug": ..., "company": ...}.',
    '',
    'TYPES',
    `  ${'type'.padEnd(width)}needs`,
    ...rows,
    '',
    "Each board's details (what is asked, what a job holds): docs/SOURCES.md, in the npm package and the source",
    'repository.',
  ].join('\n')
}
