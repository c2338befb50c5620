import {closestCommand} from '../command-suggestion.js'
import {EXIT_USAGE} from '../exit-codes.js'
import type {Hook} from '../oclif.js'

/**
 * An unknown command is a usage error (exit 2) told in the words the user typed (`config lst`, never oclif's
 * `config:lst`), with the nearest command when it looks like a typo.
 */
export const commandNotFound: Hook.CommandNotFound = async function ({id, config}) {
  // With " " as topic separator oclif takes the words after a command that has no arguments as part of its id
  // (`runs abc` is looked up as `runs:abc`): those words are arguments the command does not take.
  const typedWords = id.split(':')
  for (let depth = typedWords.length - 1; depth >= 1; depth--) {
    const command = typedWords.slice(0, depth).join(' ')
    if (!config.findCommand(typedWords.slice(0, depth).join(':'))) continue
    const extra = typedWords.slice(depth)
    process.stderr.write(
      `Error: unexpected argument${extra.length > 1 ? 's' : ''}: ${extra.join(' ')}\n` +
        `Hint: ${config.bin} ${command} takes no arguments; ${config.bin} ${command} --help shows its usage.\n`,
    )
    this.exit(EXIT_USAGE)
  }

  const words = (oclifId: string) => oclifId.split(':').join(' ')
  const topics = new Set(config.topics.filter((topic) => !topic.hidden).map((topic) => words(topic.name)))
  // oclif joins the arguments after an unknown command into its id (`boards fnd acme`): keep the topic words and
  // the one word after them.
  let depth = 1
  while (depth < typedWords.length && topics.has(typedWords.slice(0, depth).join(' '))) depth++
  const typed = typedWords.slice(0, depth).join(' ')
  const topic = typedWords.slice(0, depth - 1).join(' ')

  const known = [
    ...config.commands.filter((command) => !command.hidden).flatMap((command) => [command.id, ...command.aliases]),
    ...topics,
  ].map(words)
  const isFlag = typed.startsWith('-')
  const suggestion = isFlag ? undefined : closestCommand(typed, known)
  process.stderr.write(
    `Error: "${typed}" is not a ${config.bin} ${isFlag ? 'flag or command' : 'command'}.` +
      `${suggestion ? ` Did you mean "${suggestion}"?` : ''}\n` +
      `Hint: ${[config.bin, topic].filter(Boolean).join(' ')} --help lists the commands.\n`,
  )
  this.exit(EXIT_USAGE)
}
