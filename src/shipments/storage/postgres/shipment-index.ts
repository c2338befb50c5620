import type pg from 'pg'
import type {IndexStatus} from '../../core/stores.js'
import {missingTable} from '../shipment-sql.js'
import {quoteIdentifier} from '../sql-names.js'

/**
 * Finds an index of `table` whose leading columns are `columns`, in order, from the catalog. EXPLAIN cannot
 * tell: on a small table the planner rightly prefers a sequential scan even when the index exists.
 */
export async function findLeadingIndex(
  pool: pg.Pool,
  table: string,
  columns: readonly [string, string?],
  missing: IndexStatus,
): Promise<IndexStatus> {
  const [first, second] = columns
  const result = await pool.query(
    `SELECT to_regclass($1) IS NOT NULL AS table_exists,
            (SELECT i.indexrelid::regclass::text
               FROM pg_index i
               JOIN pg_attribute a1 ON a1.attrelid = i.indrelid AND a1.attnum = i.indkey[0]
               LEFT JOIN pg_attribute a2 ON a2.attrelid = i.indrelid AND a2.attnum = i.indkey[1]
              WHERE i.indrelid = to_regclass($1) AND a1.attname = $2 AND ($3::text IS NULL OR a2.attname = $3)
              LIMIT 1) AS index_name`,
    [quoteIdentifier(table), first, second ?? null],
  )
  const row = result.rows[0] as {table_exists: boolean; index_name: string | null}
  if (!row.table_exists) return missingTable(table)
  return row.index_name ? {ok: true, message: `lookups use index ${row.index_name}`} : missing
}
