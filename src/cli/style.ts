import {styleText} from 'node:util'

type Format = Parameters<typeof styleText>[0]

/** Colour only on a terminal, and never when NO_COLOR is set or TERM is dumb. */
export function colourEnabled(stream: NodeJS.WriteStream = process.stdout, env = process.env): boolean {
  return Boolean(stream.isTTY) && !('NO_COLOR' in env && env.NO_COLOR !== '') && env.TERM !== 'dumb'
}

export function makeStyle(enabled: boolean) {
  const paint = (format: Format) => (text: string) => (enabled ? styleText(format, text) : text)
  return {
    bold: paint('bold'),
    dim: paint('dim'),
    red: paint('red'),
    green: paint('green'),
    yellow: paint('yellow'),
    cyan: paint('cyan'),
  }
}

export type Style = ReturnType<typeof makeStyle>
