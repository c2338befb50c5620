import {spawnSync} from 'node:child_process'
import {readdirSync, readFileSync} from 'node:fs'
import {join, relative, sep} from 'node:path'
import {pathToFileURL} from 'node:url'
import type {Command} from '@oclif/core'
import {describe, expect, it} from 'vitest'
import {ROOT} from './helpers/cli.js'

interface ManifestCommand {
  id: string
  summary?: string
  description?: string
  examples?: string[]
  flags: Record<string, unknown>
  args: Record<string, unknown>
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {
  commands: Record<string, ManifestCommand>
}

/** Command ids the way oclif derives them from file paths: `config/list.js` -> `config:list`. */
function commandIds(dir: string, extension: RegExp): string[] {
  return readdirSync(dir, {recursive: true, encoding: 'utf8'})
    .filter((file) => extension.test(file) && !file.endsWith('.d.ts'))
    .map((file) => relative(dir, join(dir, file)).replace(extension, '').split(sep).join(':'))
    .sort()
}

const compiledIds = commandIds(join(ROOT, 'dist/commands'), /\.js$/)

async function loadCommand(id: string): Promise<typeof Command> {
  const file = join(ROOT, 'dist/commands', `${id.split(':').join('/')}.js`)
  return ((await import(pathToFileURL(file).href)) as {default: typeof Command}).default
}

const inGitCheckout = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], {cwd: ROOT}).status === 0
if (!inGitCheckout) console.warn('skipping the committed-manifest comparison: not a git checkout')

describe('the committed oclif manifest', () => {
  // npm test builds first, and the build rewrites the manifest: a stale committed one shows up as a change.
  it.skipIf(!inGitCheckout)('is the one the build produces (commit it after changing a command)', () => {
    const diff = spawnSync('git', ['diff', '--stat', '--', 'oclif.manifest.json'], {cwd: ROOT, encoding: 'utf8'})
    expect(diff.stdout, 'oclif.manifest.json differs from the committed one: git add it').toBe('')
  })

  it('was built from every command in the source tree', () => {
    expect(compiledIds).toEqual(commandIds(join(ROOT, 'commands'), /\.tsx?$/))
  })

  it('lists exactly the compiled commands', () => {
    expect(Object.keys(manifest.commands).sort()).toEqual(compiledIds)
  })

  it.each(compiledIds)('describes %s as its class does', async (id) => {
    const command = await loadCommand(id)
    const entry = manifest.commands[id]
    expect(entry, `${id} is missing from oclif.manifest.json; run npm run build`).toBeDefined()
    const flags = Object.keys({...command.baseFlags, ...command.flags})
    if (command.enableJsonFlag) flags.push('json')
    expect({
      id: entry?.id,
      summary: entry?.summary,
      flags: Object.keys(entry?.flags ?? {}).sort(),
      args: Object.keys(entry?.args ?? {}),
    }).toEqual({id, summary: command.summary, flags: flags.sort(), args: Object.keys(command.args ?? {})})
  })
})

describe('the help texts', () => {
  const commands = Object.values(manifest.commands)

  it.each(commands.map((command) => [command.id, command] as const))(
    '%s: a description wraps to the terminal, never inside a sentence in the source',
    (_, command) => {
      expect(command.description ?? '').not.toMatch(/\n[a-z(]/)
    },
  )

  it.each(commands.map((command) => [command.id, command] as const))(
    '%s: every example is a command line, shown with $ like the others',
    (_, command) => {
      for (const example of command.examples ?? []) expect(example).toMatch(/^(<%= config\.bin %> |\$ )/)
    },
  )
})
