// Calls to jobagent's public REST API: the bearer token of this tab, and API errors as readable ApiErrors.

const TOKEN_KEY = 'jobagent.apiToken'

/** An API answer that was not a success; `details` are ready-to-read lines ("status: unknown status"). */
export class ApiError extends Error {
  constructor(message, {status = 0, details = [], hint} = {}) {
    super(message)
    this.status = status
    this.details = details
    this.hint = hint
  }
}

// The token lives in sessionStorage (this tab only); memoryToken covers browsers with storage disabled.
let memoryToken = ''
let promptForToken = async () => {
  throw new ApiError('the server asks for an API token')
}

/** `prompt(reason)` resolves with the token the user typed; it is called whenever the server answers 401. */
export function onTokenNeeded(prompt) {
  promptForToken = prompt
}

function storedToken() {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? memoryToken
  } catch {
    return memoryToken
  }
}

function storeToken(token) {
  memoryToken = token
  try {
    if (token) sessionStorage.setItem(TOKEN_KEY, token)
    else sessionStorage.removeItem(TOKEN_KEY)
  } catch {
    // Storage can be disabled; the token then lasts until the page is reloaded.
  }
}

/** fetch() with the token; a 401 asks for a (new) token and repeats the request; other failures throw ApiError. */
export async function api(method, path, {body, accept = 'application/json'} = {}) {
  let token = storedToken()
  for (;;) {
    const headers = {Accept: accept}
    if (token) headers.Authorization = `Bearer ${token}`
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    let response
    try {
      response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)})
    } catch (error) {
      throw new ApiError(`jobagent could not be reached (${error.message}). Is "jobagent serve" still running?`)
    }
    if (response.status !== 401) {
      if (!response.ok) throw await errorFrom(response)
      return response
    }
    // Requests run side by side: what this one was refused with decides what it says, and a token another request
    // stored meanwhile is tried before asking again.
    const current = storedToken()
    if (current && current !== token) {
      token = current
      continue
    }
    if (token) storeToken('')
    token = await promptForToken(
      token
        ? 'The server did not accept that token. Enter the value of JOBAGENT_API_TOKEN again.'
        : 'This server asks for an API token (JOBAGENT_API_TOKEN). It is kept in this browser tab only.',
    )
    storeToken(token)
  }
}

export async function apiJson(method, path, options) {
  return (await api(method, path, options)).json()
}

/** The largest page the list routes give (GET /jobs/last, GET /applications). */
const PAGE_LIMIT = 1000

/**
 * Every item of a paged list (`{<key>: [...], total, ...}`), a page at a time: the answer of the first page with
 * `key` holding all the items.
 */
export async function apiList(path, key) {
  const separator = path.includes('?') ? '&' : '?'
  const items = []
  let first
  for (;;) {
    const body = await apiJson('GET', `${path}${separator}limit=${PAGE_LIMIT}&offset=${items.length}`)
    first ??= body
    const page = Array.isArray(body[key]) ? body[key] : []
    items.push(...page)
    if (page.length === 0 || typeof body.total !== 'number' || items.length >= body.total) break
  }
  return {...first, [key]: items, count: items.length}
}

/** Reads `{"error": {code, message, details, hint}}`; anything else becomes "the server answered 502 ...". */
async function errorFrom(response) {
  const fallback = new ApiError(`the server answered ${response.status} ${response.statusText}`.trim(), {
    status: response.status,
  })
  let error
  try {
    error = (await response.json())?.error
  } catch {
    return fallback
  }
  if (typeof error?.message !== 'string') return fallback
  const details = Array.isArray(error.details)
    ? error.details.map((detail) =>
        typeof detail === 'string' ? detail : [detail?.field, detail?.message].filter(Boolean).join(': '),
      )
    : []
  const hint = typeof error.hint === 'string' ? error.hint : undefined
  return new ApiError(error.message, {status: response.status, details, hint})
}
