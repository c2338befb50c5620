import {Agent, fetch} from 'undici'

/**
 * Without keep-alive: a stream the client aborts leaves its connection in the pool until the pool's own timeout, which
 * would hold a server's shutdown that long.
 */
const noKeepAlive = new Agent({keepAliveTimeout: 1, keepAliveMaxTimeout: 1})

/** One message of an event stream: its event name, data, id, or a comment line's text. */
export interface StreamMessage {
  event?: string
  data?: string
  id?: string
  comment?: string
  /** The `retry:` field: the reconnection delay the server asks for. */
  retry?: string
}

export interface EventStream {
  response: Awaited<ReturnType<typeof fetch>>
  /** The next message (comments included when `comments`), or a rejection after `timeoutMs`. */
  next(options?: {timeoutMs?: number; comments?: boolean}): Promise<StreamMessage>
  /** Resolves when the server ends the stream (false if it is still open after `timeoutMs`). */
  ended(timeoutMs: number): Promise<boolean>
  close(): Promise<void>
}

/** Opens `url` as an event stream and parses what arrives; a non-200 answer is returned as is with no messages. */
export async function openEventStream(
  url: string,
  {headers = {}}: {headers?: Record<string, string>} = {},
): Promise<EventStream> {
  const controller = new AbortController()
  const response = await fetch(url, {
    headers: {accept: 'text/event-stream', ...headers},
    signal: controller.signal,
    dispatcher: noKeepAlive,
  })
  const messages: StreamMessage[] = []
  const waiters: (() => void)[] = []
  let done = false
  const wakeAll = () => {
    for (const wake of waiters.splice(0)) wake()
  }
  if (response.status === 200 && response.body) {
    void (async () => {
      const decoder = new TextDecoder()
      let buffer = ''
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, {stream: true})
          let end = buffer.indexOf('\n\n')
          while (end !== -1) {
            messages.push(parseMessage(buffer.slice(0, end)))
            buffer = buffer.slice(end + 2)
            end = buffer.indexOf('\n\n')
          }
          wakeAll()
        }
      } catch {}
      done = true
      wakeAll()
    })()
  } else {
    done = true
  }
  const wait = (timeoutMs: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs)
      waiters.push(() => {
        clearTimeout(timer)
        resolve()
      })
    })
  return {
    response,
    async next({timeoutMs = 3000, comments = false} = {}) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const index = messages.findIndex((message) => comments || message.comment === undefined)
        if (index !== -1) return messages.splice(0, index + 1).at(-1) as StreamMessage
        if (done) throw new Error('the stream ended')
        const left = deadline - Date.now()
        if (left <= 0) throw new Error(`no message within ${timeoutMs} ms`)
        await wait(left)
      }
    },
    async ended(timeoutMs) {
      const deadline = Date.now() + timeoutMs
      while (!done && Date.now() < deadline) await wait(deadline - Date.now())
      return done
    },
    async close() {
      controller.abort()
    },
  }
}

function parseMessage(text: string): StreamMessage {
  const message: StreamMessage = {}
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) message.comment = line.slice(1).trim()
    else if (line.startsWith('event: ')) message.event = line.slice('event: '.length)
    else if (line.startsWith('data: ')) message.data = (message.data ? `${message.data}\n` : '') + line.slice(6)
    else if (line.startsWith('id: ')) message.id = line.slice('id: '.length)
    else if (line.startsWith('retry: ')) message.retry = line.slice('retry: '.length)
  }
  return message
}

/** One connection of a resuming stream: who served it and the Last-Event-ID it was opened with. */
export interface StreamConnection {
  servedBy: string | null
  lastEventId: string | undefined
}

/** A state message as a resuming stream received it. */
export interface ReceivedState {
  id: string
  data: string
  servedBy: string | null
}

export interface ResumingStream {
  readonly states: ReceivedState[]
  readonly connections: StreamConnection[]
  /** States received whose id was the last one this client had: a repeat. */
  readonly repeats: number
  /** Answers other than 200 while reconnecting. */
  readonly refusals: number[]
  /** Stops reconnecting, closes the open connection and resolves when the loop has ended. */
  stop(): Promise<void>
}

/**
 * An event stream client as EventSource behaves: on every end or failure it waits the server's `retry:` delay and
 * reconnects with `Last-Event-ID` set to the last id it received.
 */
export function resumingEventStream(url: string): ResumingStream {
  const controller = new AbortController()
  const states: ReceivedState[] = []
  const connections: StreamConnection[] = []
  const refusals: number[] = []
  let repeats = 0
  let lastEventId: string | undefined
  let retryMs = 1000
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms)
      controller.signal.addEventListener('abort', () => {
        clearTimeout(timer)
        resolve()
      })
    })
  const loop = (async () => {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch(url, {
          headers: {accept: 'text/event-stream', ...(lastEventId ? {'last-event-id': lastEventId} : {})},
          signal: controller.signal,
          dispatcher: noKeepAlive,
        })
        if (response.status !== 200 || !response.body) {
          refusals.push(response.status)
          await response.body?.cancel()
        } else {
          const servedBy = response.headers.get('x-served-by')
          connections.push({servedBy, lastEventId})
          const decoder = new TextDecoder()
          let buffer = ''
          for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
            buffer += decoder.decode(chunk, {stream: true})
            let end = buffer.indexOf('\n\n')
            while (end !== -1) {
              const block = buffer.slice(0, end)
              buffer = buffer.slice(end + 2)
              end = buffer.indexOf('\n\n')
              const retry = /^retry: (\d+)$/m.exec(block)
              if (retry?.[1]) retryMs = Number(retry[1])
              const message = parseMessage(block)
              if (message.event !== 'unified' || message.id === undefined) continue
              if (message.id === lastEventId) repeats++
              lastEventId = message.id
              states.push({id: message.id, data: message.data ?? '', servedBy})
            }
          }
        }
      } catch {}
      await pause(retryMs)
    }
  })()
  return {
    states,
    connections,
    refusals,
    get repeats() {
      return repeats
    },
    async stop() {
      controller.abort()
      await loop
    },
  }
}
