import type {SourceOutcome} from './search-result.js'

// The HTTP client describes socket failures as `network error: <message with the system error code>`
// (src/http-client/http-error.ts), e.g. `network error: getaddrinfo ENOTFOUND remoteok.com`.
const NETWORK_ERROR = /^network error: .*?\b(E[A-Z_]{3,}|UND_ERR_[A-Z_]+)\b/

const CAUSES: readonly {codes: readonly string[]; cause: string}[] = [
  {
    codes: ['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME'],
    cause: 'no board name could be resolved (DNS): is this machine offline?',
  },
  {
    codes: ['ECONNREFUSED'],
    cause: 'every connection was refused: a firewall, or a proxy (HTTPS_PROXY) that is not running?',
  },
  {
    codes: ['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ENETUNREACH', 'EHOSTUNREACH'],
    cause: 'no board answered: is the network or its proxy down?',
  },
]

/**
 * When no board could be reached at all, the likely cause in one line and what to try; null when at least one
 * board answered or some failed for another reason (an HTTP error, a bad answer), which the per-board
 * warnings already explain.
 */
export function unreachableHint(
  outcomes: readonly SourceOutcome[],
  options: {proxyConfigured: boolean},
): string | null {
  if (outcomes.length === 0 || outcomes.some((outcome) => outcome.ok)) return null
  const codes = outcomes.map((outcome) => NETWORK_ERROR.exec(outcome.error ?? '')?.[1] ?? '')
  // Only failures to reach a board at all: a board that closed the connection mid-answer was reached.
  if (!codes.every((code) => CAUSES.some((cause) => cause.codes.includes(code)))) return null
  const proxy = options.proxyConfigured || /proxy/i.test(outcomes.map((outcome) => outcome.error).join(' '))
  const known = CAUSES.find(({codes: group}) => codes.every((code) => group.includes(code)))
  const cause = proxy
    ? 'every request through the proxy failed: check HTTPS_PROXY, HTTP_PROXY and NO_PROXY.'
    : (known?.cause ?? 'no board could be reached over the network.')
  return `Hint: ${cause} Check the connection, or see a complete run on sample boards with: jobagent run --demo`
}
