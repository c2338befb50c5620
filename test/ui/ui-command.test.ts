import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'

const STATIC_IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm

/** Every module a file loads at start-up: static imports followed through the repository; dynamic import() is not. */
function staticGraph(entry: string): {files: Set<string>; packages: Set<string>} {
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const specifier = match[1] ?? match[2] ?? ''
      if (specifier.startsWith('.')) visit(source(resolve(dirname(file), specifier)))
      else
        packages.add(
          specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? ''),
        )
    }
  }
  visit(resolve(entry))
  return {files, packages}
}

/** `./x.js` in an import is the compiled name of x.ts or x.tsx. */
function source(imported: string): string {
  const base = imported.replace(/\.js$/, '')
  return existsSync(`${base}.ts`) ? `${base}.ts` : `${base}.tsx`
}

function commandFiles(dir = join(ROOT, 'commands')): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) =>
    entry.isDirectory()
      ? commandFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  )
}

describe('only the ui command loads Ink and React', () => {
  it.each(commandFiles().map((file) => [relative(ROOT, file), file]))('%s imports neither', (_, file) => {
    const {files, packages} = staticGraph(file)
    expect([...packages].filter((name) => name === 'ink' || name === 'react' || name.startsWith('ink-'))).toEqual([])
    expect([...files].filter((path) => path.includes('/src/ui/')).map((path) => relative(ROOT, path))).toEqual([])
  })

  it('finds Ink and React in the dashboard itself, which the ui command imports dynamically', () => {
    const {packages} = staticGraph(join(ROOT, 'src/ui/dashboard.tsx'))
    expect(packages).toContain('ink')
    expect(packages).toContain('react')
    expect(readFileSync(join(ROOT, 'commands/ui.ts'), 'utf8')).toContain("import('../src/ui/dashboard.js')")
  })
})
