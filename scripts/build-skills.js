// Writes data/skills.json: the other names of common tools and technologies, from O*NET 29.3's technology examples
// (vendor/onet-29.3/technology-skills.txt.gz). An example is written with its vendor and often an acronym
// ("Microsoft Excel", "Amazon Web Services AWS software", "Structured query language SQL"); postings write the
// product's own name or the acronym ("Excel", "AWS", "SQL"). Each example gives one group of spellings: the name
// without a trailing "software", without its vendor, its long form and its acronym. Only the examples O*NET marks
// hot or in demand, or that five occupations or more name, are kept: the tools postings actually ask for.
//
// A spelling that is a single capitalised word after its vendor is dropped ("Excel") is marked ambiguous: it may be
// a plain word, so scoring counts it only where it stands as the tool (src/core/matching/skills.ts). Such a word
// that is also a word of the occupations' own titles ("Office", "Project", "Database") is not kept at all: alone it
// names work, not the tool.
//
// Output (deterministic, sorted): {"source":"O*NET 29.3","groups":[[spelling,...],...],"ambiguous":[spelling,...]}
// Run: node scripts/build-skills.js
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {gunzipSync} from 'node:zlib'

const ROOT = join(import.meta.dirname, '..')
const VENDOR = join(ROOT, 'vendor', 'onet-29.3')
/** Leading words that this many examples share name a vendor or a product family. */
const MIN_VENDOR_PRODUCTS = 3
/** An example named for this many occupations or more is a common tool. */
const MIN_OCCUPATIONS = 5
/** Words after a product's name that postings leave out. */
const SUFFIXES = /\s+(software|systems)$/i

/** The rows of one tab-separated O*NET table, header dropped; quoted fields lose their quotes. */
function rows(name) {
  const text = gunzipSync(readFileSync(join(VENDOR, name))).toString('utf8')
  return text
    .split('\n')
    .slice(1)
    .filter((line) => line.trim() !== '')
    .map((line) => line.split('\t').map((field) => field.replace(/^"(.*)"$/s, '$1').trim()))
}

/** Whether `acronym` spells the initials of every one of `words`, in order; a letter may also come from inside a
 * word ("Hypertext markup language" -> HTML). */
function isAcronymOf(acronym, words) {
  const letters = acronym.toLowerCase()
  const lower = words.map((word) => word.toLowerCase())
  // `at`: the next letter to spell; `word`, `from`: the word being read and where in it the next letter may be.
  const spells = (at, word, from) => {
    if (at === letters.length) return word === lower.length - 1
    const letter = letters[at]
    if (word + 1 < lower.length && lower[word + 1][0] === letter && spells(at + 1, word + 1, 1)) return true
    const inside = lower[word].indexOf(letter, from)
    return inside !== -1 && spells(at + 1, word, inside + 1)
  }
  return lower.length >= 2 && lower[0][0] === letters[0] && spells(1, 0, 1)
}

/** The spellings one example gives, as written (case kept, to tell the ambiguous ones). */
function spellingsOf(example, vendors) {
  const name = example.replace(SUFFIXES, '')
  const words = name.split(/\s+/)
  const found = [name]
  let base = words
  const last = words.at(-1)
  if (words.length >= 3 && /^[A-Z][A-Z0-9]+$/.test(last)) {
    // "Amazon Web Services AWS": the acronym of the words before it, the longest run of them that it spells.
    for (let start = 0; start < words.length - 2; start++) {
      const long = words.slice(start, -1)
      if (isAcronymOf(last, long)) {
        base = words.slice(0, -1)
        found[0] = base.join(' ')
        found.push(last, long.join(' '))
        break
      }
    }
  }
  // The vendor: the longest run of leading words that other examples start with too ("Red Hat", "Microsoft"),
  // when what follows is a product's name (capitalised: "Excel", "macOS"), not the rest of a phrase ("Calendar and
  // scheduling", "Web browser").
  for (let length = base.length - 1; length >= 1; length--) {
    if (vendors.has(base.slice(0, length).join(' '))) {
      const product = base.slice(length)
      if (/[A-Z]/.test(product[0]) && !/^\d/.test(product[0])) found.push(product.join(' '))
      break
    }
  }
  return found
}

export function buildSkills() {
  const technology = rows('technology-skills.txt.gz')
  const occupations = new Map()
  const wanted = new Set()
  for (const [code, , example, , , hot, demand] of technology) {
    if (!occupations.has(example)) occupations.set(example, new Set())
    occupations.get(example).add(code)
    if (hot === 'Y' || demand === 'Y') wanted.add(example)
  }
  for (const [example, codes] of occupations) if (codes.size >= MIN_OCCUPATIONS) wanted.add(example)

  // Leading word runs that several distinct examples share: vendors (and product families).
  const prefixCount = new Map()
  for (const example of occupations.keys()) {
    const words = example.replace(SUFFIXES, '').split(/\s+/)
    for (let length = 1; length < words.length; length++) {
      const prefix = words.slice(0, length).join(' ')
      prefixCount.set(prefix, (prefixCount.get(prefix) ?? 0) + 1)
    }
  }
  const vendors = new Set(
    [...prefixCount].filter(([, count]) => count >= MIN_VENDOR_PRODUCTS).map(([prefix]) => prefix),
  )

  // The words of the occupations' titles: a tool's name that is one of them names work when it stands alone.
  const titleWords = new Set()
  const addWords = (title) => {
    for (const word of title.toLowerCase().split(/[^a-z0-9+#.]+/)) if (word !== '') titleWords.add(word)
  }
  for (const [, title] of rows('occupation-data.txt.gz')) addWords(title)
  for (const [, , alternate] of rows('alternate-titles.txt.gz')) addWords(alternate)

  const groups = new Map()
  const ambiguous = new Set()
  for (const example of wanted) {
    const [full, ...others] = spellingsOf(example, vendors)
    const kept = new Set([full.toLowerCase()])
    for (const spelling of others) {
      const lower = spelling.toLowerCase()
      // One capitalised word and nothing else ("Excel", "Office"): it could be a plain word of a sentence, and
      // where it is a word of job titles it names the work. An acronym or a coined name ("SQL", "QuickBooks") is
      // the tool wherever it stands.
      if (/^[A-Z][a-z]+$/.test(spelling)) {
        if (titleWords.has(lower)) continue
        ambiguous.add(lower)
      }
      kept.add(lower)
    }
    if (kept.size < 2) continue
    const group = [...kept].sort()
    groups.set(group.join('\n'), group)
  }
  const sorted = [...groups.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  return `${JSON.stringify({source: 'O*NET 29.3', groups: sorted, ambiguous: [...ambiguous].sort()})}\n`
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  writeFileSync(join(ROOT, 'data', 'skills.json'), buildSkills())
}
