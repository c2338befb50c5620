import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
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
})
