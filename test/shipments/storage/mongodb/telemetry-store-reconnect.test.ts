import net from 'node:net'
import {BSON} from 'mongodb'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {UnavailableError} from '../../../../src/core/errors.js'
import {silentLogger} from '../../../../src/core/logger.js'
import {MongoTelemetryStore} from '../../../../src/shipments/storage/mongodb/shipment-telemetry-store.js'

// No MongoDB server runs here: these tests stand real TCP servers on 127.0.0.1 in for one that is down,
// hangs, or (a few lines of wire protocol) comes up later.

const TIMEOUT_MS = 300
const PASSWORD = 'not-for-messages'
const signal = new AbortController().signal

interface LocalServer {
  port: number
  connections: number
  openSockets: Set<net.Socket>
  stop(): Promise<void>
}

const servers: LocalServer[] = []
const stores: MongoTelemetryStore[] = []
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()))
  await Promise.all(servers.splice(0).map((server) => server.stop()))
})

async function listen(onSocket: (socket: net.Socket) => void, port = 0): Promise<LocalServer> {
  const openSockets = new Set<net.Socket>()
  const tcp = net.createServer((socket) => {
    local.connections += 1
    openSockets.add(socket)
    socket.on('close', () => openSockets.delete(socket))
    // The driver resets connections when it gives up or closes; that must not crash the test server.
    socket.on('error', () => {})
    onSocket(socket)
  })
  await new Promise<void>((resolve) => tcp.listen(port, '127.0.0.1', resolve))
  const local: LocalServer = {
    port: (tcp.address() as net.AddressInfo).port,
    connections: 0,
    openSockets,
    stop: () => {
      for (const socket of openSockets) socket.destroy()
      return new Promise((resolve) => tcp.close(() => resolve()))
    },
  }
  servers.push(local)
  return local
}

/** Accepts connections and never answers, like a MongoDB host that hangs. */
const blackhole = () => listen(() => {})

/** A port nothing listens on: bound once to get a free number, then released. */
async function closedPort(): Promise<number> {
  const probe = net.createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const {port} = probe.address() as net.AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

const OP_REPLY = 1
const OP_QUERY = 2004
const OP_MSG = 2013

function answer(command: BSON.Document, documents: BSON.Document[]): BSON.Document {
  const name = Object.keys(command)[0] ?? ''
  if (name === 'hello' || name.toLowerCase() === 'ismaster') {
    return {
      helloOk: true,
      ismaster: true,
      isWritablePrimary: true,
      maxBsonObjectSize: 16_777_216,
      maxMessageSizeBytes: 48_000_000,
      maxWriteBatchSize: 100_000,
      localTime: new Date(),
      logicalSessionTimeoutMinutes: 30,
      connectionId: 1,
      minWireVersion: 0,
      maxWireVersion: 21,
      ok: 1,
    }
  }
  if (name === 'find') {
    return {cursor: {firstBatch: documents, id: BSON.Long.fromNumber(0), ns: `${command.$db}.${command.find}`}, ok: 1}
  }
  return {ok: 1}
}

function frame(opCode: number, responseTo: number, body: Buffer): Buffer {
  const header = Buffer.alloc(16)
  header.writeInt32LE(16 + body.length, 0)
  header.writeInt32LE(responseTo + 1, 4)
  header.writeInt32LE(responseTo, 8)
  header.writeInt32LE(opCode, 12)
  return Buffer.concat([header, body])
}

const documentAt = (message: Buffer, offset: number) =>
  BSON.deserialize(message.subarray(offset, offset + message.readInt32LE(offset)))

/** The driver's handshake comes as a legacy OP_QUERY (answered with OP_REPLY); everything after it as OP_MSG. */
function reply(message: Buffer, documents: BSON.Document[]): Buffer {
  const requestId = message.readInt32LE(4)
  if (message.readInt32LE(12) === OP_QUERY) {
    const collectionNameEnd = message.indexOf(0, 20)
    const command = documentAt(message, collectionNameEnd + 9)
    const replyPrefix = Buffer.alloc(20)
    replyPrefix.writeInt32LE(1, 16)
    return frame(OP_REPLY, requestId, Buffer.concat([replyPrefix, BSON.serialize(answer(command, documents))]))
  }
  const command = documentAt(message, 21)
  return frame(OP_MSG, requestId, Buffer.concat([Buffer.alloc(5), BSON.serialize(answer(command, documents))]))
}

/** Just enough of a MongoDB server to connect, ping and answer every find with the given documents. */
function fakeMongod(port: number, documents: BSON.Document[]): Promise<LocalServer> {
  return listen((socket) => {
    let pending = Buffer.alloc(0)
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk])
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const size = pending.readInt32LE(0)
        socket.write(reply(pending.subarray(0, size), documents))
        pending = pending.subarray(size)
      }
    })
  }, port)
}

/** A store whose URL carries a password, unless told not to (the fake server above cannot authenticate). */
function storeAt(port: number, {credentials = true} = {}): MongoTelemetryStore {
  const userinfo = credentials ? `jobagent:${PASSWORD}@` : ''
  const store = new MongoTelemetryStore({
    url: `mongodb://${userinfo}127.0.0.1:${port}/fleet?authSource=admin`,
    collection: 'telemetry',
    idField: 'shipment_id',
    timeField: 'recorded_at',
    poolSize: 2,
    timeoutMs: TIMEOUT_MS,
    logger: silentLogger,
  })
  stores.push(store)
  return store
}

async function failure(operation: Promise<unknown>): Promise<UnavailableError & {elapsedMs: number}> {
  const started = performance.now()
  const error = await operation.then(
    () => expect.fail('the operation succeeded'),
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(UnavailableError)
  return Object.assign(error as UnavailableError, {elapsedMs: performance.now() - started})
}

describe('MongoDB telemetry store without a reachable server', () => {
  it('tries to connect again at each lookup to a server that never answers, reporting the timeout', async () => {
    const server = await blackhole()
    const store = storeAt(server.port)

    const first = await failure(store.latest('S1', signal))
    const attemptsAfterFirst = server.connections
    const second = await failure(store.latest('S1', signal))

    expect(attemptsAfterFirst).toBeGreaterThan(0)
    expect(server.connections).toBeGreaterThan(attemptsAfterFirst)
    for (const error of [first, second]) {
      expect(error.message).toBe(
        `MongoDB telemetry store at mongodb://127.0.0.1:${server.port}/fleet did not answer within ${TIMEOUT_MS} ms`,
      )
      expect(error.retryAfterSeconds).toBe(5)
    }
  })

  it('tries again at an index check and a ping after a failed lookup', async () => {
    const server = await blackhole()
    const store = storeAt(server.port)

    await failure(store.latest('S1', signal))
    const afterLookup = server.connections
    expect((await failure(store.checkIndex())).message).toContain('did not answer within')
    const afterIndexCheck = server.connections
    expect((await failure(store.ping())).message).toContain('did not answer within')

    expect(afterIndexCheck).toBeGreaterThan(afterLookup)
    expect(server.connections).toBeGreaterThan(afterIndexCheck)
  })

  it('makes one new connection attempt for lookups that arrive together after a failure', async () => {
    const server = await blackhole()
    const store = storeAt(server.port)
    await failure(store.latest('S0', signal))
    const attemptsBefore = server.connections

    const errors = await Promise.all([1, 2, 3].map((n) => failure(store.latest(`S${n}`, signal))))

    expect(errors.map((error) => error.message)).toEqual(Array(3).fill(errors[0]?.message))
    expect(errors[0]?.message).toContain('did not answer within')
    expect(server.connections - attemptsBefore).toBe(1)
  })

  it('fails each lookup on a closed port within the timeout, naming the target without credentials', async () => {
    const port = await closedPort()
    const store = storeAt(port)

    for (const attempt of [1, 2]) {
      const error = await failure(store.latest('S1', signal))
      expect(error.message, `attempt ${attempt}`).toBe(
        `MongoDB telemetry store at mongodb://127.0.0.1:${port}/fleet could not be reached: connect ECONNREFUSED 127.0.0.1:${port}`,
      )
      expect(error.message).not.toContain(PASSWORD)
      expect(error.retryAfterSeconds).toBe(5)
      expect(error.elapsedMs).toBeLessThan(TIMEOUT_MS + 1000)
    }
  })

  it('answers lookups once the server comes up, without a restart, and closes its connections', async () => {
    const port = await closedPort()
    const store = storeAt(port, {credentials: false})
    await failure(store.ping())

    const server = await fakeMongod(port, [
      {_id: new BSON.ObjectId(), shipment_id: 'S1', recorded_at: new Date('2026-03-01T12:00:00Z'), lat: 2},
    ])
    expect(await store.latest('S1', signal)).toEqual({recorded_at: '2026-03-01T12:00:00.000Z', payload: {lat: 2}})
    await store.ping()

    expect(server.openSockets.size).toBeGreaterThan(0)
    await store.close()
    await vi.waitFor(() => expect(server.openSockets.size).toBe(0), {timeout: 2000})
  })

  it('refuses operations after it is closed', async () => {
    const store = storeAt(await closedPort())
    await store.close()
    expect((await failure(store.latest('S1', signal))).message).toMatch(/telemetry store .* is closed$/)
  })
})
