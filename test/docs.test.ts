import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join, posix, sep} from 'node:path'
import ts from 'typescript'
import {describe, expect, it} from 'vitest'
import {ROOT} from './helpers/cli.js'

/**
 * The prose of the README and docs/, read as a reader meets it: a paragraph left over from a move (half a sentence
 * under a heading) shows as a section that starts in lower case or as a parenthesis closed but never opened.
 */

const FILES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs')).flatMap((name) => (name.endsWith('.md') ? [`docs/${name}`] : [])),
]

/** The paragraphs of a Markdown file, without fenced code blocks and with code spans removed. */
function paragraphs(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/^```[\s\S]*?^```/gm, '')
  return text.split(/\n\s*\n/).map((paragraph) => paragraph.replace(/`[^`]*`/g, '``'))
}

/** The folders of the repository a doc or a comment cites files in. */
const CITED_DIRS = ['bench', 'bin', 'commands', 'data', 'demo', 'docs', 'examples', 'scripts', 'src', 'test', 'vendor']
/** The folders whose source files' comments are read. */
const SOURCE_DIRS = ['bench', 'bin', 'commands', 'scripts', 'src', 'test']

/**
 * The repository file paths a text cites: a path from one of CITED_DIRS to a file name with an extension
 * (`src/app/context.ts`, `docs/API.md`), not a part of a longer path (`dist/src/web`, `../shared/data/x.csv`).
 */
function citedPaths(text: string): string[] {
  const pattern = new RegExp(`(?<![\\w./-])(?:${CITED_DIRS.join('|')})/[\\w./-]*\\w`, 'g')
  return [...text.matchAll(pattern)].map((match) => match[0]).filter((path) => /\/[^/.][^/]*\.[A-Za-z]\w*$/.test(path))
}

/**
 * The documents a text names alone (`API.md`, `NOTES.md`), where the text around it says in which folder: each is a
 * file of the repository by that name, at its root or in one of CITED_DIRS.
 */
function namedDocs(text: string): string[] {
  return [...text.matchAll(/(?<![\w./-])[A-Z][A-Z0-9_-]*\.md\b/g)].map((match) => match[0])
}

const DOC_NAMES = new Set(
  [
    ...readdirSync(ROOT),
    ...CITED_DIRS.flatMap((dir) => readdirSync(join(ROOT, dir), {recursive: true, encoding: 'utf8'})),
  ].flatMap((path) => (path.split(sep).includes('node_modules') ? [] : [posix.basename(path.split(sep).join('/'))])),
)

function docExists(name: string): boolean {
  return DOC_NAMES.has(name)
}

/** The Markdown links of a doc to files of the repository, resolved from the doc's folder. */
function linkedPaths(file: string, text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => posix.normalize(posix.join(posix.dirname(file), target)))
}

/**
 * A cited file exists; a compiled name (`src/cli/help.js`) stands for its TypeScript source, which is what the
 * repository holds.
 */
function exists(path: string): boolean {
  const stem = path.replace(/\.js$/, '')
  return [path, `${stem}.ts`, `${stem}.tsx`].some((candidate) => existsSync(join(ROOT, candidate)))
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), {recursive: true, encoding: 'utf8'})
    .map((file) => posix.join(dir, file.split(sep).join('/')))
    .filter((file) => /\.(ts|tsx|js|mjs)$/.test(file) && !file.split('/').includes('node_modules'))
    .sort()
}

/** Every comment of a source file, with the line it starts on, read by the TypeScript parser. */
function comments(file: string, text = readFileSync(join(ROOT, file), 'utf8')): {line: number; text: string}[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind)
  const found = new Map<number, {line: number; text: string}>()
  // The comments before and after every node, up to the next token: on its line (trailing) and on the lines
  // below (leading), before a closing brace too.
  const visit = (node: ts.Node): void => {
    for (const at of [node.pos, node.end]) {
      for (const range of [
        ...(ts.getTrailingCommentRanges(text, at) ?? []),
        ...(ts.getLeadingCommentRanges(text, at) ?? []),
      ]) {
        const line = source.getLineAndCharacterOfPosition(range.pos).line + 1
        found.set(range.pos, {line, text: text.slice(range.pos, range.end)})
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return [...found.values()].sort((a, b) => a.line - b.line)
}

describe('the documentation', () => {
  it.each(FILES)('%s begins every section with a sentence', (file) => {
    const all = paragraphs(file)
    const starts = all.flatMap((paragraph, i) => (/^#+ /.test(all[i - 1] ?? '') ? [paragraph] : []))
    // "jobagent" is the program's name and is written in lower case at the start of a sentence too.
    expect(starts.filter((start) => /^[a-z]/.test(start) && !start.startsWith('jobagent '))).toEqual([])
  })

  it.each(FILES)('%s closes in every paragraph the parentheses it opens', (file) => {
    const unbalanced = paragraphs(file).filter(
      (paragraph) => (paragraph.match(/\(/g) ?? []).length !== (paragraph.match(/\)/g) ?? []).length,
    )
    expect(unbalanced).toEqual([])
  })

  it.each(FILES)('%s cites only files the repository holds', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8')
    const cited = [...citedPaths(text), ...linkedPaths(file, text)]
    const missing = [...cited.filter((path) => !exists(path)), ...namedDocs(text).filter((name) => !docExists(name))]
    expect([...new Set(missing)]).toEqual([])
  })

  it('finds the file paths a text cites and the files a doc links to', () => {
    const text =
      'see src/app/context.ts:12, docs/API.md#errors and `test/a.test.ts`. Not dist/src/web/app.js, ' +
      '../shared/data/x.csv, https://example.org/src/y.ts, src/shipments/ or docs/*.md'
    expect(citedPaths(text)).toEqual(['src/app/context.ts', 'docs/API.md', 'test/a.test.ts'])
    expect(namedDocs('as API.md and README.md say, not docs/X.md or ../shared/PROVENANCE.md')).toEqual([
      'API.md',
      'README.md',
    ])
    expect(docExists('API.md') && docExists('README.md') && !docExists('NOWHERE.md')).toBe(true)
    expect(linkedPaths('docs/A.md', '[b](B.md#x), [c](../src/c.ts), [d](https://example.org/d.md)')).toEqual([
      'docs/B.md',
      'src/c.ts',
    ])
    expect(exists('src/app/context.ts') && exists('src/app/context.js') && !exists('test/a.test.ts')).toBe(true)
  })
})

describe('the comments of the source', () => {
  it('cite only files the repository holds', () => {
    const missing = SOURCE_DIRS.flatMap(sourceFiles).flatMap((file) =>
      comments(file).flatMap(({line, text}) =>
        [
          ...citedPaths(text).filter((path) => !exists(path)),
          ...namedDocs(text).filter((name) => !docExists(name)),
        ].map((path) => `${file}:${line} ${path}`),
      ),
    )
    expect(missing).toEqual([])
  })

  it('are read wherever they sit, and only they', () => {
    const text = [
      '#!/usr/bin/env node',
      '/** Leads. */',
      'function f() {',
      '  g() // after a statement',
      '  // before a closing brace',
      '}',
      "const pattern = /^sqlite:\\/\\//, url = 'https://example.org' /* last */",
    ].join('\n')
    expect(comments('x.ts', text)).toEqual([
      {line: 2, text: '/** Leads. */'},
      {line: 4, text: '// after a statement'},
      {line: 5, text: '// before a closing brace'},
      {line: 7, text: '/* last */'},
    ])
  })
})
