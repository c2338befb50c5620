// The detail row of a job: its score and the reasons, what the board said about it, its life and its description,
// from the job the list already holds.
import {employmentWords, listingText, workplaceLine} from '../core/jobs/job-facts.js'
import {formatSalary} from '../core/jobs/salary.js'
import type {Job} from './api-types.js'
import {el, factList, formatLocalTimestamp, hiddenText, plural, toggleRowBelow} from './dom.js'

/** What a detail view lists about a job, label and text, leaving out what the board did not give. */
function jobFacts(job: Job): [label: string, text: string][] {
  const facts: [string, string][] = [
    ['Salary', job.salary ? formatSalary(job.salary) : ''],
    ['Type', job.employment_type ? employmentWords(job.employment_type) : ''],
    ['Workplace', workplaceLine(job) ?? ''],
    ['Seniority', job.seniority ?? ''],
    ['Tags', job.tags.join(', ')],
    ['Closed', job.closed_at ? `${formatLocalTimestamp(job.closed_at)}: no board lists it any more` : ''],
    ['Reposted', job.reposted ? `${plural(job.reposted, 'time')} since ${formatLocalTimestamp(job.first_seen)}` : ''],
    ['Also on', (job.also_on ?? []).map(listingText).join(', ')],
  ]
  return facts.filter(([, text]) => text)
}

/** `Score: 72 of 100` and the reasons the server gave, one to a line: `+ typescript (title)`, `- php (description)`. */
function scoreDetail(job: Job): HTMLDivElement {
  // The scorer's reason lines: `+`/`~` count for the job, `-` and gates against it (docs/MATCHING.md).
  const tone = (reason: string) =>
    /^[+~] /.test(reason) ? 'for' : reason.startsWith('- ') || reason.startsWith('gate: ') ? 'against' : 'other'
  return el(
    'div',
    {className: 'score-detail'},
    el('p', {}, 'Score: ', el('strong', {}, String(job.score)), ' of 100'),
    job.reasons.length > 0
      ? el(
          'ul',
          {className: 'reasons', 'aria-label': 'Reasons for the score'},
          ...job.reasons.map((reason) => el('li', {className: tone(reason)}, String(reason))),
        )
      : null,
  )
}

let detailIds = 0

/**
 * The "Details" button of a job row and the row it opens below: the score and its reasons (with a profile), salary,
 * type, workplace, seniority, tags and the description. The detail row exists only while open.
 */
export function detailsToggle(
  job: Job,
  name: string,
  jobRowOf: () => HTMLTableRowElement,
  columns: number,
): HTMLButtonElement {
  const id = `job-detail-${++detailIds}`
  const facts = jobFacts(job)
  const row = el(
    'tr',
    {className: 'detail-row', id},
    el(
      'td',
      {colspan: columns},
      el('h3', {}, name),
      typeof job.score === 'number' ? scoreDetail(job) : null,
      facts.length > 0 ? factList(facts) : null,
      job.description
        ? el('div', {className: 'description'}, job.description)
        : el('p', {className: 'empty'}, 'No description from the board.'),
    ),
  )
  const button = el('button', {type: 'button'}, 'Details', hiddenText(` of ${name}`))
  toggleRowBelow(button, row, jobRowOf)
  return button
}
