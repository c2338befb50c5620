import {randomBytes} from 'node:crypto'
import mysql from 'mysql2/promise'

const DEFAULT_URL = 'mysql://root@127.0.0.1:3306'

/**
 * The server the MySQL/MariaDB tests use: JOBAGENT_TEST_MYSQL_URL (CI sets it), else the local default when it
 * lets root in, else undefined (the tests are skipped and say why).
 */
export async function testMysqlUrl(): Promise<string | undefined> {
  const configured = process.env.JOBAGENT_TEST_MYSQL_URL
  if (configured) return configured
  try {
    const connection = await mysql.createConnection({uri: DEFAULT_URL, connectTimeout: 2000})
    await connection.end()
    return DEFAULT_URL
  } catch {
    return undefined
  }
}

/** A fresh database with a random name on that server; `drop` removes it. */
export async function createTestMysqlDatabase(
  serverUrl: string,
): Promise<{url: string; admin: mysql.Connection; drop: () => Promise<void>}> {
  const name = `jobagent_test_${randomBytes(6).toString('hex')}`
  const server = await mysql.createConnection({uri: serverUrl})
  try {
    await server.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`)
  } finally {
    await server.end()
  }
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const admin = await mysql.createConnection({uri: url.toString(), supportBigNumbers: true})
  return {
    url: url.toString(),
    admin,
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`)
      await admin.end()
    },
  }
}
