import {createInterface} from 'node:readline'

/** The first line typed on `input` ('' when it ends first). */
export function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  const lines = createInterface({input, terminal: false})
  return new Promise((resolve) => {
    lines.once('line', (line) => {
      resolve(line)
      lines.close()
    })
    lines.once('close', () => resolve(''))
  })
}

/** `y` or `yes` in any case; anything else, Enter included, is no. */
export function isYes(answer: string): boolean {
  return /^y(es)?$/i.test(answer.trim())
}
