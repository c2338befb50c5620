/**
 * Rows read by key, kept while the database is unchanged, for a hot point lookup (GET
 * /applications/{url}/status) that would otherwise pay SQLite's read transaction per statement. A commit by
 * another connection (a cron run, the CLI, the dashboard) changes `PRAGMA data_version`, which is read at most
 * once per event-loop turn; the owner clears the cache itself when its own connection writes, because
 * data_version does not change for a connection's own commits.
 */
export class ReadCache<V> {
  private readonly rows = new Map<string, V | null>()
  private version: number | undefined
  private checkedThisTurn = false

  constructor(
    private readonly dataVersion: () => number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, load: () => V | null): V | null {
    this.revalidate()
    const cached = this.rows.get(key)
    if (cached !== undefined) return cached
    const value = load()
    // Dropping everything at the bound keeps the bookkeeping to one Map; a miss costs only one query.
    if (this.rows.size >= this.maxEntries) this.rows.clear()
    this.rows.set(key, value)
    return value
  }

  clear(): void {
    this.rows.clear()
  }

  private revalidate(): void {
    if (this.checkedThisTurn) return
    this.checkedThisTurn = true
    setImmediate(() => {
      this.checkedThisTurn = false
    })
    const version = this.dataVersion()
    if (version !== this.version) {
      this.rows.clear()
      this.version = version
    }
  }
}
