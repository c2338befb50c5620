import {createInterface} from 'node:readline/promises'
import type {Readable, Writable} from 'node:stream'
import {answerQuestion, PROFILE_QUESTIONS} from '../app/profile-questions.js'
import {isJobagentError} from '../core/errors.js'
import type {Profile} from '../core/matching/profile.js'

/**
 * Asks the profile's questions one by one on `input`, each with an example and the value now (kept on Enter). On a
 * terminal (`retry`) an answer that cannot be read is explained and the question asked again; from a pipe it is an
 * error, since the next line was meant for the next question. The input ending keeps the rest.
 */
export async function askProfile(
  current: Profile,
  io: {input: Readable; output: Writable; retry: boolean},
): Promise<Profile> {
  const lines = createInterface({input: io.input, output: io.output, terminal: false})
  const pending: string[] = []
  let ended = false
  let wake: (() => void) | undefined
  lines.on('line', (line) => {
    pending.push(line)
    wake?.()
  })
  lines.on('close', () => {
    ended = true
    wake?.()
  })
  const next = async (): Promise<string | null> => {
    while (pending.length === 0 && !ended) await new Promise<void>((resolve) => (wake = resolve))
    return pending.shift() ?? null
  }
  let profile = current
  io.output.write('Answer each question; Enter keeps the value in [brackets], "-" clears it.\n')
  try {
    for (const question of PROFILE_QUESTIONS) {
      for (;;) {
        const now = (question.shown as (value: unknown) => string)(profile[question.key])
        io.output.write(`\n${question.ask}\n  e.g. ${question.example}\n${now ? `[${now}] ` : ''}> `)
        const answer = await next()
        if (answer === null) return profile
        try {
          profile = answerQuestion(profile, question, answer)
          break
        } catch (error) {
          if (!isJobagentError(error) || !io.retry) throw error
          io.output.write(`${error.message}${error.hint ? ` (${error.hint})` : ''}\n`)
        }
      }
    }
    return profile
  } finally {
    lines.close()
  }
}

/** The profile as `jobagent profile --show` prints it. */
export function renderProfile(profile: Profile): string {
  const skills = Object.entries(profile.skills).map(([name, weight]) => `${name} (${weight})`)
  const rows: [string, string][] = [
    ['Roles', profile.roles.join(', ')],
    ['Skills', skills.join(', ')],
    ['Avoid', profile.avoid.join(', ')],
    ['Level', profile.seniority],
    ['Home', profile.home ?? ''],
    ['Locations', profile.locations.join(', ')],
  ]
  const width = Math.max(...rows.map(([name]) => name.length)) + 2
  const lines = rows.map(([name, value]) => `${`${name}:`.padEnd(width)}${value || '-'}`)
  return ['Profile (docs/MATCHING.md):', ...lines.map((line) => `  ${line}`)].join('\n')
}
