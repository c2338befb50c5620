import {readdirSync, readFileSync} from 'node:fs'
import {join, posix, sep} from 'node:path'
import ts from 'typescript'
import {describe, expect, it} from 'vitest'
import {ROOT} from './helpers/cli.js'

/**
 * Every export of a TypeScript file under src/ and commands/ must have a user in another file; an export nobody
 * imports is code that only looks alive. The files are only parsed (no type checking, no build), which keeps the
 * check fast and lets it see type-only imports too.
 *
 * The rule:
 * - An import from src/, commands/, bin/, scripts/ or bench/ (production code, the build, the benchmarks) is a
 *   use: static, re-exported, type-only, `import('…').Name` in a type, or dynamic (`await import()` and bench's
 *   loads of built modules, `fromDist('src/…')`, followed through destructuring, `Promise.all` and property access;
 *   a module object used in any other way counts as a use of all its exports).
 * - An import from test/ is a use only when production code in the exporting file uses the name too: a piece of
 *   live code exposed so that its rule is tested alone (a parser, a formatter, a type). An export that only tests
 *   reach runs nowhere else, so it is dead, and so is a re-export only tests import (they import the module that
 *   declares it).
 * - Entry points other programs look up by name are used: the default export of a command file (oclif loads
 *   commands/ by directory) and the hook and help class package.json's `oclif` section names.
 * - src/web, the browser page's modules, is read like the rest: its entry point, app.ts, exports nothing.
 * A dead export is reported as `file:line name`; "used only in its own file" means: drop the `export` keyword.
 */

const PRODUCTION_DIRS = ['src', 'commands', 'bin', 'scripts', 'bench']
const TEST_DIRS = ['test']
const CHECKED_DIRS = ['src', 'commands']

type Uses = Set<string> | 'all'

interface ExportSite {
  file: string
  line: number
  name: string
  /** `export {x} from './y.js'`: the file only passes the name on. */
  reexport: boolean
}

interface ModuleFile {
  exports: ExportSite[]
  /** Modules whose names this file re-exports with `export *`. */
  starFrom: string[]
  /** Names of other modules this file uses, by the module's path. */
  uses: Map<string, Uses>
  /** The names the file's own code refers to (declarations and property names are not references). */
  references: Set<string>
}

function merge(into: Map<string, Uses>, file: string, uses: Uses): void {
  const known = into.get(file)
  if (known === 'all' || uses === 'all') into.set(file, 'all')
  else into.set(file, new Set([...(known ?? []), ...uses]))
}

function union(a: Uses, b: Uses): Uses {
  return a === 'all' || b === 'all' ? 'all' : new Set([...a, ...b])
}

const isStringLiteral = (node: ts.Node | undefined): node is ts.StringLiteralLike =>
  node !== undefined && ts.isStringLiteralLike(node)

/** The repository file a module specifier names: relative to the importer, with dist/ read as the sources. */
function resolveSpecifier(
  importer: string,
  specifier: string,
  files: ReadonlySet<string>,
  rootRelative: boolean,
): string | undefined {
  let path: string
  if (specifier.startsWith('.')) path = posix.normalize(posix.join(posix.dirname(importer), specifier))
  else if (rootRelative) path = specifier
  else return undefined
  path = path.replace(/^dist\//, '')
  const stem = path.replace(/\.js$/, '')
  return [`${stem}.ts`, `${stem}.tsx`, path, `${stem}/index.ts`].find((candidate) => files.has(candidate))
}

/** The names a binding of a module object (or of a promise of one) takes from it. */
function bindingUses(name: ts.BindingName, source: ts.SourceFile): Uses {
  if (ts.isObjectBindingPattern(name)) {
    const names = new Set<string>()
    for (const element of name.elements) {
      if (element.dotDotDotToken) return 'all'
      const key = element.propertyName ?? element.name
      if (ts.isIdentifier(key) || ts.isStringLiteral(key)) names.add(key.text)
      else return 'all'
    }
    return names
  }
  if (ts.isArrayBindingPattern(name)) return 'all'
  let uses: Uses = new Set()
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && node.text === name.text && isReference(node)) {
      uses = union(uses, valueUses(node, source))
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return uses
}

/** The names taken from the module object (or promise of one) that `node` evaluates to. */
function valueUses(node: ts.Node, source: ts.SourceFile): Uses {
  const parent = node.parent
  if (ts.isParenthesizedExpression(parent) || ts.isAwaitExpression(parent)) return valueUses(parent, source)
  if (ts.isPropertyAccessExpression(parent) && parent.expression === node) return new Set([parent.name.text])
  if (ts.isQualifiedName(parent) && parent.left === node) return new Set([parent.right.text])
  if (ts.isElementAccessExpression(parent) && parent.expression === node) {
    return isStringLiteral(parent.argumentExpression) ? new Set([parent.argumentExpression.text]) : 'all'
  }
  if (ts.isVariableDeclaration(parent) && parent.initializer === node) return bindingUses(parent.name, source)
  // `const [{a}, {b}] = await Promise.all([import('./a.js'), import('./b.js')])`
  if (ts.isArrayLiteralExpression(parent) && ts.isCallExpression(parent.parent)) {
    const call = parent.parent
    const callee = call.expression
    const isPromiseAll =
      ts.isPropertyAccessExpression(callee) &&
      ts.isIdentifier(callee.expression) &&
      callee.expression.text === 'Promise' &&
      callee.name.text === 'all'
    let consumer: ts.Node = call.parent
    while (ts.isAwaitExpression(consumer) || ts.isParenthesizedExpression(consumer)) consumer = consumer.parent
    if (isPromiseAll && ts.isVariableDeclaration(consumer) && ts.isArrayBindingPattern(consumer.name)) {
      const element = consumer.name.elements[parent.elements.indexOf(node as ts.Expression)]
      if (element === undefined || ts.isOmittedExpression(element)) return new Set()
      return element.dotDotDotToken ? 'all' : bindingUses(element.name, source)
    }
  }
  return 'all'
}

function exportedNames(statement: ts.Statement): ts.Identifier[] {
  if (ts.isVariableStatement(statement)) {
    const names: ts.Identifier[] = []
    const collect = (name: ts.BindingName): void => {
      if (ts.isIdentifier(name)) names.push(name)
      else for (const element of name.elements) if (!ts.isOmittedExpression(element)) collect(element.name)
    }
    for (const declaration of statement.declarationList.declarations) collect(declaration.name)
    return names
  }
  const name = (statement as ts.DeclarationStatement).name
  return name && ts.isIdentifier(name) ? [name] : []
}

function readModule(file: string, text: string, files: ReadonlySet<string>): ModuleFile {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2023, true, kind)
  const module: ModuleFile = {exports: [], starFrom: [], uses: new Map(), references: new Set()}
  const lineOf = (node: ts.Node): number => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
  const addExport = (node: ts.Node, name: string, reexport = false): void => {
    module.exports.push({file, line: lineOf(node), name, reexport})
  }
  const resolve = (specifier: ts.Expression | undefined, rootRelative = false): string | undefined =>
    isStringLiteral(specifier) ? resolveSpecifier(file, specifier.text, files, rootRelative) : undefined

  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const from = resolve(statement.moduleSpecifier)
      const clause = statement.importClause
      if (!from || !clause) continue
      const names = new Set<string>()
      if (clause.name) names.add('default')
      const bindings = clause.namedBindings
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) names.add((element.propertyName ?? element.name).text)
      }
      merge(module.uses, from, names)
      if (bindings && ts.isNamespaceImport(bindings)) merge(module.uses, from, bindingUses(bindings.name, source))
    } else if (ts.isExportDeclaration(statement)) {
      const from = resolve(statement.moduleSpecifier)
      const clause = statement.exportClause
      if (!clause) {
        if (from) module.starFrom.push(from)
      } else if (ts.isNamedExports(clause)) {
        for (const element of clause.elements) {
          addExport(element, element.name.text, statement.moduleSpecifier !== undefined)
          if (from) merge(module.uses, from, new Set([(element.propertyName ?? element.name).text]))
        }
      } else {
        addExport(clause, clause.name.text, true)
        if (from) merge(module.uses, from, 'all')
      }
    } else if (ts.isExportAssignment(statement)) {
      addExport(statement, 'default')
    } else if (ts.canHaveModifiers(statement)) {
      const modifiers = ts.getModifiers(statement) ?? []
      if (!modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue
      if (modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword)) addExport(statement, 'default')
      else for (const name of exportedNames(statement)) addExport(name, name.text)
    }
  }

  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && isReference(node)) module.references.add(node.text)
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const from = resolve(node.argument.literal)
      if (from) {
        const first = node.qualifier && (ts.isIdentifier(node.qualifier) ? node.qualifier : leftmost(node.qualifier))
        merge(module.uses, from, first && !node.isTypeOf ? new Set([first.text]) : 'all')
      }
    }
    if (ts.isCallExpression(node) && node.arguments.length === 1) {
      const dynamicImport = node.expression.kind === ts.SyntaxKind.ImportKeyword
      // Besides import(), a call with one literal path to a source module loads it (bench's `fromDist('src/…')`).
      const from = resolve(node.arguments[0], !dynamicImport)
      if (from && (dynamicImport || /^(src|commands)\//.test(from))) merge(module.uses, from, valueUses(node, source))
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return module
}

function leftmost(name: ts.QualifiedName): ts.Identifier {
  return ts.isIdentifier(name.left) ? name.left : leftmost(name.left)
}

/** Whether an identifier refers to a name in scope, rather than declaring one or naming a property. */
function isReference(node: ts.Identifier): boolean {
  const parent = node.parent
  if (ts.isShorthandPropertyAssignment(parent)) return true
  if (ts.isQualifiedName(parent)) return parent.left === node
  if (ts.isBindingElement(parent) && parent.propertyName === node) return false
  if (ts.isExportSpecifier(parent) || ts.isImportSpecifier(parent)) return false
  // A property access's name, a declaration's name, a property or a parameter: none of them refers to a binding.
  return (parent as ts.Node & {name?: ts.Node}).name !== node
}

interface DeadExport extends ExportSite {
  /** Production code in the file uses the name: drop the `export` keyword instead of the declaration. */
  usedInFile: boolean
  /** Only tests import it. */
  testOnly: boolean
}

/**
 * The exports of the `checked` files that no other file uses, given each file's text; `isTest` tells a test file
 * from production code, `entryPoints` are `file#name` keys other programs use by name.
 */
function deadExports(
  texts: ReadonlyMap<string, string>,
  checked: (file: string) => boolean,
  isTest: (file: string) => boolean,
  entryPoints: ReadonlySet<string>,
): DeadExport[] {
  const files = new Set(texts.keys())
  const modules = new Map([...texts].map(([file, text]) => [file, readModule(file, text, files)]))
  const usedBy = {production: new Map<string, Uses>(), test: new Map<string, Uses>()}
  const markUsed = (used: Map<string, Uses>, file: string, uses: Uses, seen: Set<string>): void => {
    const module = modules.get(file)
    if (!module || seen.has(file)) return
    seen.add(file)
    merge(used, file, uses)
    // A name this file does not export itself comes through its `export *`.
    const own = new Set(module.exports.map((site) => site.name))
    const forwarded: Uses = uses === 'all' ? 'all' : new Set([...uses].filter((name) => !own.has(name)))
    if (forwarded === 'all' || forwarded.size > 0) {
      for (const from of module.starFrom) markUsed(used, from, forwarded, new Set(seen))
    }
  }
  for (const [importer, module] of modules) {
    const used = isTest(importer) ? usedBy.test : usedBy.production
    for (const [exporter, uses] of module.uses) if (exporter !== importer) markUsed(used, exporter, uses, new Set())
  }
  const has = (used: Map<string, Uses>, site: ExportSite): boolean => {
    const uses = used.get(site.file)
    return uses === 'all' || (uses?.has(site.name) ?? false)
  }
  return [...modules]
    .filter(([file]) => checked(file))
    .flatMap(([file, module]) =>
      module.exports.flatMap((site) => {
        if (entryPoints.has(`${file}#${site.name}`) || has(usedBy.production, site)) return []
        const usedInFile = !site.reexport && module.references.has(site.name)
        const testOnly = has(usedBy.test, site)
        return testOnly && usedInFile ? [] : [{...site, usedInFile, testOnly}]
      }),
    )
    .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line)
}

function isUnder(path: string, dir: string): boolean {
  return path.startsWith(`${dir}/`)
}

function repositoryFiles(): Map<string, string> {
  const texts = new Map<string, string>()
  for (const dir of [...PRODUCTION_DIRS, ...TEST_DIRS]) {
    for (const entry of readdirSync(join(ROOT, dir), {recursive: true, encoding: 'utf8'})) {
      const file = posix.join(dir, entry.split(sep).join('/'))
      if (!/\.(ts|tsx|js|mjs)$/.test(file) || file.endsWith('.d.ts')) continue
      if (file.split('/').includes('node_modules')) continue
      texts.set(file, readFileSync(join(ROOT, file), 'utf8'))
    }
  }
  return texts
}

/** The command classes, and the hook and help class entry points package.json's `oclif` section names. */
function oclifEntryPoints(texts: ReadonlyMap<string, string>): Set<string> {
  const entries = new Set(
    [...texts.keys()].filter((file) => isUnder(file, 'commands')).map((file) => `${file}#default`),
  )
  const {oclif} = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    oclif: {
      hooks?: Record<string, {target: string; identifier: string}>
      helpClass?: {target: string; identifier: string}
    }
  }
  for (const {target, identifier} of [
    ...Object.values(oclif.hooks ?? {}),
    ...(oclif.helpClass ? [oclif.helpClass] : []),
  ]) {
    const file = resolveSpecifier('package.json', target, new Set(texts.keys()), false)
    if (file) entries.add(`${file}#${identifier}`)
  }
  return entries
}

function report(dead: readonly DeadExport[]): string[] {
  return dead.map((site) => {
    const note = site.usedInFile ? ' (used only in its own file)' : site.testOnly ? ' (used by tests only)' : ''
    return `${site.file}:${site.line} ${site.name}${note}`
  })
}

const isTestFile = (file: string): boolean => TEST_DIRS.some((dir) => isUnder(file, dir))
const isChecked = (file: string): boolean => CHECKED_DIRS.some((dir) => isUnder(file, dir))

describe('dead exports', () => {
  it('follows static, type, re-exported, namespace and dynamic imports to the names they use', () => {
    const texts = new Map([
      [
        'src/a.ts',
        [
          'export const used = 1',
          'export const unused = 2',
          'export function local() {}',
          'local()',
          'export interface TypeOnly {}',
          'export {renamed as alias}',
          'const renamed = 3',
          'export default class Command {}',
          'export * from "ink"',
          'const box = {unused: 1}',
          'box.unused',
        ].join('\n'),
      ],
      ['src/b.ts', 'export const b1 = 1\nexport const b2 = 2\nexport const b3 = 3\nexport type B4 = 1'],
      ['src/c.ts', 'export const c1 = 1\nexport const c2 = 2'],
      ['src/d.ts', 'export const d1 = 1\nexport const d2 = 2\nexport const d3 = 3'],
      ['src/e.ts', 'export const e1 = 1\nexport const e2 = 2'],
      ['src/barrel.ts', 'export * from "./e.js"\nexport {d3 as again} from "./d.js"'],
      [
        'src/user.ts',
        [
          'import {used, type TypeOnly} from "./a.js"',
          'import * as b from "./b.js"',
          'type T = import("./b.js").B4',
          'const {c1} = await import("./c.js")',
          'const loading = import("./d.js")',
          'const [{d1}] = await Promise.all([loading, Promise.resolve(1)])',
          'const module = await loading',
          'module.d2',
          'b.b1',
          'import {e1, again} from "./barrel.js"',
        ].join('\n'),
      ],
      ['bench/load.js', 'const {alias} = await fromDist("src/a.js")\nconst {b3} = await fromDist("src/b.js")'],
    ])

    const dead = deadExports(texts, isChecked, isTestFile, new Set(['src/a.ts#default']))

    expect(report(dead)).toEqual([
      'src/a.ts:2 unused',
      'src/a.ts:3 local (used only in its own file)',
      'src/b.ts:2 b2',
      'src/c.ts:2 c2',
      'src/e.ts:2 e2',
    ])
  })

  it("counts a test's import only of a name production code uses in the exporting file", () => {
    const texts = new Map([
      [
        'src/parse.ts',
        [
          'export function parseLine() {}',
          'export function fixture() {}',
          'export function run() { parseLine() }',
        ].join('\n'),
      ],
      ['src/index.ts', 'export {parseLine} from "./parse.js"\nimport {run} from "./parse.js"\nrun()'],
      [
        'test/parse.test.ts',
        'import {parseLine, fixture} from "../src/parse.js"\nimport {parseLine as again} from "../src/index.js"',
      ],
      ['src/main.ts', 'import {run} from "./parse.js"'],
    ])

    expect(report(deadExports(texts, isChecked, isTestFile, new Set()))).toEqual([
      'src/index.ts:1 parseLine (used by tests only)',
      'src/parse.ts:2 fixture (used by tests only)',
    ])
  })

  it('finds the command classes and the hook and help class package.json names', () => {
    const entries = oclifEntryPoints(repositoryFiles())
    expect(entries).toContain('src/cli/help.ts#JobagentHelp')
    expect(entries).toContain('src/cli/hooks/command-not-found.ts#commandNotFound')
    expect(entries).toContain('commands/run.ts#default')
  })

  it('has no export in src/ or commands/ that no other file uses', () => {
    const texts = repositoryFiles()
    const dead = deadExports(texts, isChecked, isTestFile, oclifEntryPoints(texts))
    expect(report(dead)).toEqual([])
  })
})
