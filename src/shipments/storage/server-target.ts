/** Where a database URL connects (`host:port/database`), without user or password, for messages. */
export function describeTarget(url: string, defaultPort: number): string {
  try {
    const parsed = new URL(url)
    return `${parsed.hostname || 'localhost'}:${parsed.port || defaultPort}${parsed.pathname}`
  } catch {
    return 'the configured server'
  }
}
