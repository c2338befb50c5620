// Writes data/occupations.json, the occupation index jobagent ships, from the O*NET 29.3 tables in vendor/onet-29.3
// (docs/MATCHING.md, "The role"): every occupation with its job zone and related occupations by tier, and every
// title people use for one (occupation, alternate, short and reported titles) in the words scoring reads titles
// in. Run it with `npx tsx scripts/build-occupations.ts` after the vendored tables change; the output is sorted, so
// the same tables give the same bytes (test/scripts/build-occupations.test.ts checks the committed file).
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {gunzipSync} from 'node:zlib'
import type {OccupationData} from '../src/core/matching/occupations.js'
import {JOINING_WORDS, roleWords, singulars} from '../src/core/matching/title-words.js'

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..')
const VENDOR = join(root, 'vendor', 'onet-29.3')
export const OCCUPATIONS_FILE = join(root, 'data', 'occupations.json')

/** The tiers of related occupations, nearest first, as the data file numbers them (0, 1, 2). */
const TIERS = ['Primary-Short', 'Primary-Long', 'Supplemental'] as const
/**
 * Two head nouns are equivalent when at least this many pairs of one occupation's titles differ only in them, and
 * those pairs are this large a share (cosine) of the titles either head ends: `attorney`/`lawyer` and `tech`/
 * `technician` pass; `analyst`/`engineer`, which share many titles but end far more apart, do not.
 */
const EQUIVALENT_PAIRS = 3
const EQUIVALENT_SHARE = 0.15

/** A tab-separated O*NET table's rows, header dropped; a field may be wrapped in double quotes. */
function rows(name: string): string[][] {
  const text = gunzipSync(readFileSync(join(VENDOR, `${name}.txt.gz`))).toString('utf8')
  return text
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line.trim() !== '')
    .map((line) => line.split('\t').map((field) => field.replace(/^"(.*)"$/s, '$1').replace(/""/g, '"')))
}

/** A title's forms worth indexing: itself without its parentheses, and what the parentheses hold. */
function titleForms(title: string): string[] {
  const forms = [title.replace(/\([^)]*\)/g, ' ')]
  for (const [, inner] of title.matchAll(/\(([^)]*)\)/g)) forms.push(inner!)
  return forms
}

/** Reads the tables into the index; pure but for the reads, so a test can run it and compare with the file. */
export function buildOccupations(): OccupationData {
  const occupations = rows('occupation-data').map(([code, title]) => ({code: code!, title: title!}))
  occupations.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
  const index = new Map(occupations.map(({code}, at) => [code, at]))
  const zones = new Map(rows('job-zones').map(([code, , zone]) => [code!, Number(zone)]))

  const titles = new Map<string, Set<number>>()
  const add = (text: string, at: number) => {
    for (const form of titleForms(text)) {
      const words = roleWords(form)
      if (words.length === 0) continue
      const key = words.join(' ')
      let set = titles.get(key)
      if (!set) {
        set = new Set()
        titles.set(key, set)
      }
      set.add(at)
    }
  }
  for (const [code, , alternate, short] of rows('alternate-titles')) {
    const at = index.get(code!)
    if (at === undefined) continue
    add(alternate!, at)
    if (short) add(short, at)
  }
  for (const [code, , reported] of rows('reported-titles')) {
    const at = index.get(code!)
    if (at !== undefined) add(reported!, at)
  }

  // Occupation titles are plural ("Registered Nurses"): each is indexed in the singular people title jobs in,
  // taken from the words the other titles use. "Bioengineers and Biomedical Engineers" names two titles.
  const vocabulary = new Set<string>()
  for (const key of titles.keys()) for (const word of key.split(' ')) vocabulary.add(word)
  const singular = (word: string) => singulars(word).find((form) => vocabulary.has(form)) ?? word
  const names: string[] = []
  for (const [at, {title}] of occupations.entries()) {
    const main = title.replace(/,\s*(except|all other|including)\b.*$/i, '').replace(/\([^)]*\)/g, ' ')
    const words = roleWords(main)
    const last = words.length - 1
    names.push(displayName(main, singular))
    const whole = words.map((word, i) => (i === last || words[i + 1] === 'and' ? singular(word) : word))
    add(whole.join(' '), at)
    const parts = main.split(/\s*(?:,|\band\b)\s*/i).filter((part) => part.trim() !== '')
    const plural = (part: string) => {
      const last = roleWords(part).at(-1)
      return last !== undefined && singular(last) !== last
    }
    if (parts.length > 1 && parts.every(plural)) {
      for (const part of parts) {
        const partWords = roleWords(part)
        add(partWords.map((word, i) => (i === partWords.length - 1 ? singular(word) : word)).join(' '), at)
      }
    }
  }

  const related = occupations.map((): [number[], number[], number[]] => [[], [], []])
  for (const [code, , other, , tier] of rows('related-occupations')) {
    const from = index.get(code!)
    const to = index.get(other!)
    const level = TIERS.indexOf(tier as (typeof TIERS)[number])
    if (from === undefined || to === undefined || level < 0) continue
    related[from]![level]!.push(to)
  }
  for (const tiers of related) for (const list of tiers) list.sort((a, b) => a - b)

  // Sorted by code unit, as the index's binary search compares them.
  const keys = [...titles.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return {
    source: 'O*NET 29.3',
    occupations: occupations.map(({code}, at) => [code, names[at]!, zones.get(code) ?? 0, ...related[at]!]),
    titles: keys,
    of: keys.map((key) => {
      const list = [...titles.get(key)!].sort((a, b) => a - b)
      return list.length === 1 ? list[0]! : list
    }),
    ...wordLists(keys),
    nouns: headNouns(keys),
    heads: equivalentHeads(titles),
  }
}

/**
 * Each word of the titles (joining words aside), sorted, with the titles that hold it: their positions as base-36
 * gaps (`3 a 1` = 3, 13, 14), so a title the data does not have is compared with the few titles sharing its words
 * without building an index at run time.
 */
function wordLists(keys: readonly string[]): {words: string[]; in: string[]} {
  const lists = new Map<string, number[]>()
  for (const [at, key] of keys.entries()) {
    for (const word of new Set(key.split(' '))) {
      if (JOINING_WORDS.has(word)) continue
      let list = lists.get(word)
      if (!list) {
        list = []
        lists.set(word, list)
      }
      list.push(at)
    }
  }
  const words = [...lists.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return {
    words,
    in: words.map((word) =>
      lists
        .get(word)!
        .map((at, i, list) => (at - (i === 0 ? 0 : list[i - 1]!)).toString(36))
        .join(' '),
    ),
  }
}

/** An occupation as reasons name it: `Registered Nurses` -> registered nurse, `Sales Managers of X` -> sales manager of x. */
function displayName(main: string, singular: (word: string) => string): string {
  const text = main
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s,]+$/, '')
    .trim()
  const of = text.indexOf(' of ')
  const head = of === -1 ? text : text.slice(0, of)
  // The last word and each word before an `and` that joins two of them: "accountants and auditors".
  const words = head.split(' ')
  const plural = (word: string, i: number) =>
    i === words.length - 1 || (words[i + 1] === 'and' && /^[\p{L}]+$/u.test(word))
  return `${words.map((word, i) => (plural(word, i) ? singular(word) : word)).join(' ')}${text.slice(head.length)}`
}

/** A word is a head noun when it ends this many titles: `engineer`, `nurse`; not `apis` or `send`. */
const HEAD_TITLES = 3

/** The words that end titles, sorted: what names the work in a title that goes on after it (`AI Engineer Data APIs`). */
function headNouns(keys: readonly string[]): string[] {
  const ending = new Map<string, number>()
  for (const key of keys) {
    const head = key.slice(key.lastIndexOf(' ') + 1)
    ending.set(head, (ending.get(head) ?? 0) + 1)
  }
  return [...ending]
    .filter(([, count]) => count >= HEAD_TITLES)
    .map(([word]) => word)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/**
 * Head nouns that name the same work, from the data: two heads are equivalent when titles of one occupation differ
 * only in them often enough ("Java Developer" and "Java Programmer", "Software Developer" and "Software Engineer").
 */
function equivalentHeads(titles: ReadonlyMap<string, ReadonlySet<number>>): Record<string, string[]> {
  const byStem = new Map<string, Set<string>>()
  for (const [key, occupations] of titles) {
    const words = key.split(' ')
    if (words.length < 2) continue
    const head = words.at(-1)!
    const stem = words.slice(0, -1).join(' ')
    for (const at of occupations) {
      const key = `${at}|${stem}`
      let heads = byStem.get(key)
      if (!heads) {
        heads = new Set()
        byStem.set(key, heads)
      }
      heads.add(head)
    }
  }
  const ending = new Map<string, number>()
  for (const heads of byStem.values()) for (const head of heads) ending.set(head, (ending.get(head) ?? 0) + 1)
  const pairs = new Map<string, number>()
  for (const heads of byStem.values()) {
    const list = [...heads].sort()
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const pair = `${list[i]} ${list[j]}`
        pairs.set(pair, (pairs.get(pair) ?? 0) + 1)
      }
    }
  }
  const heads = new Map<string, Set<string>>()
  for (const [pair, count] of pairs) {
    const [a, b] = pair.split(' ') as [string, string]
    if (count < EQUIVALENT_PAIRS || count / Math.sqrt(ending.get(a)! * ending.get(b)!) < EQUIVALENT_SHARE) continue
    for (const [one, other] of [
      [a, b],
      [b, a],
    ] as const) {
      let set = heads.get(one)
      if (!set) {
        set = new Set()
        heads.set(one, set)
      }
      set.add(other)
    }
  }
  return Object.fromEntries([...heads.keys()].sort().map((head) => [head, [...heads.get(head)!].sort()]))
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(OCCUPATIONS_FILE, `${JSON.stringify(buildOccupations())}\n`)
}
