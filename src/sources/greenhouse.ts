import {jsonBoardsAdapter} from './board-adapter.js'
import {jobsUnder, names, publicUrl, slugPath, text} from './board-helpers.js'
import type {BoardSpec} from './board-source.js'
import {isObject} from './shared.js'

/**
 * One Greenhouse job board (`GET /v1/boards/{board}/jobs`): the whole board in one response, no pagination.
 * Jobs link to the employer's own posting (`absolute_url`).
 */
const GREENHOUSE: BoardSpec = {
  type: 'greenhouse',
  defaultUrl: publicUrl('https://boards-api.greenhouse.io'),
  path: (board) => `${slugPath('/v1/boards/')(board)}/jobs`,
  // The description (`content`), departments and offices come only with content=true.
  query: () => ({content: 'true'}),
  page: jobsUnder('jobs'),
  expected: 'an object with a "jobs" array',
  notFound: {
    what: (board) => `no Greenhouse board "${board.slug}"`,
    hint: 'check the board token in the boards list (the name in https://job-boards.greenhouse.io/<token>)',
  },
  // A sweep lists each board without `content` (a tenth of the bytes) and asks each candidate's job for it.
  sweep: {
    query: () => ({}),
    detail: {
      path: (item, board) =>
        typeof item.id === 'number' || typeof item.id === 'string'
          ? `${slugPath('/v1/boards/')(board)}/jobs/${encodeURIComponent(String(item.id))}`
          : undefined,
      merge: (item, detail) => ({...item, content: detail.content, departments: detail.departments}),
    },
  },
  job: (item, board) => ({
    title: item.title,
    company: text(item.company_name) === '' ? (board.company ?? board.slug) : item.company_name,
    location: isObject(item.location) ? item.location.name : '',
    url: item.absolute_url,
    // updated_at changes on every edit; first_published is when the job appeared (absent in old boards).
    posted_date: item.first_published ?? item.updated_at,
    // content is HTML escaped once more (`&lt;p&gt;`), which the description reader unescapes.
    description: item.content,
    tags: names(item.departments),
    board_id: item.id,
  }),
}

export const greenhouseBoard = jsonBoardsAdapter(GREENHOUSE)
