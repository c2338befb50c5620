// Calls to jobagent's public REST API: the bearer token of this tab, and API errors as readable ApiErrors.
import type {ApiErrorBody} from './api-types.js'

const TOKEN_KEY = 'jobagent.apiToken'

/** An API answer that was not a success; `details` are ready-to-read lines ("status: unknown status"). */
export class ApiError extends Error {
  readonly status: number
  readonly details: string[]
  readonly hint: string | undefined

  constructor(
    message: string,
    {status = 0, details = [], hint}: {status?: number; details?: string[]; hint?: string} = {},
  ) {
    super(message)
    this.status = status
    this.details = details
    this.hint = hint
  }
}

/** Resolves with the token the user typed; `reason` says why it is asked for. */
type TokenPrompt = (reason: string) => Promise<string>

// The token lives in sessionStorage (this tab only); memoryToken covers browsers with storage disabled.
let memoryToken = ''
let promptForToken: TokenPrompt = async () => {
  throw new ApiError('the server asks for an API token')
}

/** `prompt(reason)` resolves with the token the user typed; it is called whenever the server answers 401. */
export function onTokenNeeded(prompt: TokenPrompt): void {
  promptForToken = prompt
}

function storedToken(): string {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? memoryToken
  } catch {
    return memoryToken
  }
}

function storeToken(token: string): void {
  memoryToken = token
  try {
    if (token) sessionStorage.setItem(TOKEN_KEY, token)
    else sessionStorage.removeItem(TOKEN_KEY)
  } catch {
    // Storage can be disabled; the token then lasts until the page is reloaded.
  }
}

interface RequestOptions {
  body?: unknown
  accept?: string
}

/** fetch() with the token; a 401 asks for a (new) token and repeats the request; other failures throw ApiError. */
export async function api(method: string, path: string, {body, accept = 'application/json'}: RequestOptions = {}) {
  let token = storedToken()
  for (;;) {
    const headers: Record<string, string> = {Accept: accept}
    if (token) headers.Authorization = `Bearer ${token}`
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    let response: Response
    try {
      response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)})
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      throw new ApiError(`jobagent could not be reached (${reason}). Is "jobagent serve" still running?`)
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

/** The JSON body of a successful answer, typed as the route's schema (api-types.ts) says it is. */
export async function apiJson<Body>(method: string, path: string, options?: RequestOptions): Promise<Body> {
  return (await (await api(method, path, options)).json()) as Body
}

/** The largest page the list routes give (GET /jobs/last, GET /applications). */
const PAGE_LIMIT = 1000

/** The keys of a body that hold its list. */
type ListKey<Body> = {[Key in keyof Body]: Body[Key] extends unknown[] ? Key : never}[keyof Body]

/**
 * Every item of a paged list (`{<key>: [...], total, ...}`), a page at a time: the answer of the first page with
 * `key` holding all the items.
 */
export async function apiList<Body extends {total: number; count: number}>(
  path: string,
  key: ListKey<Body>,
): Promise<Body> {
  const separator = path.includes('?') ? '&' : '?'
  const items: unknown[] = []
  let first: Body | undefined
  for (;;) {
    const body = await apiJson<Body>('GET', `${path}${separator}limit=${PAGE_LIMIT}&offset=${items.length}`)
    first ??= body
    const list = body[key]
    const page = Array.isArray(list) ? list : []
    items.push(...page)
    if (page.length === 0 || typeof body.total !== 'number' || items.length >= body.total) break
  }
  return {...first, [key]: items, count: items.length}
}

/** Reads `{"error": {code, message, details, hint}}`; anything else becomes "the server answered 502 ...". */
async function errorFrom(response: Response): Promise<ApiError> {
  const fallback = new ApiError(`the server answered ${response.status} ${response.statusText}`.trim(), {
    status: response.status,
  })
  // A proxy or a server of another version may answer anything: each field is checked before it is read.
  let error: Partial<ApiErrorBody> | undefined
  try {
    error = ((await response.json()) as {error?: Partial<ApiErrorBody>} | null)?.error
  } catch {
    return fallback
  }
  if (typeof error?.message !== 'string') return fallback
  const details = Array.isArray(error.details)
    ? error.details.map((detail: unknown) =>
        typeof detail === 'string'
          ? detail
          : [(detail as {field?: string})?.field, (detail as {message?: string})?.message].filter(Boolean).join(': '),
      )
    : []
  const hint = typeof error.hint === 'string' ? error.hint : undefined
  return new ApiError(error.message, {status: response.status, details, ...(hint === undefined ? {} : {hint})})
}
