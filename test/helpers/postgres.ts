import {randomBytes} from 'node:crypto'
import {connect} from 'node:net'
import pg from 'pg'

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/postgres'

function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({host, port})
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1000, () => done(false))
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
  })
}

/**
 * The server the PostgreSQL tests use: JOBAGENT_TEST_POSTGRES_URL (CI sets it), else the local default when
 * 127.0.0.1:5432 answers, else undefined (the tests are skipped and say why).
 */
export async function testPostgresUrl(): Promise<string | undefined> {
  const configured = process.env.JOBAGENT_TEST_POSTGRES_URL
  if (configured) return configured
  return (await answers('127.0.0.1', 5432)) ? DEFAULT_URL : undefined
}

/** A fresh database with a random name on that server; `drop` removes it (and ends its connections). */
export async function createTestDatabase(serverUrl: string): Promise<{url: string; drop: () => Promise<void>}> {
  const name = `jobagent_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({connectionString: serverUrl})
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${name}`)
  } finally {
    await admin.end()
  }
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({connectionString: serverUrl})
      await client.connect()
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      } finally {
        await client.end()
      }
    },
  }
}
