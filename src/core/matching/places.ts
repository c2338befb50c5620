/**
 * What the scorer knows about places: the world's countries, their states and cities, the regions that hold them,
 * and the names they go by, from the place index jobagent ships (data/places.json, made by scripts/build-places.js
 * from GeoNames and UN M49; docs/MATCHING.md, "Places"). A job's location, its "remote for X" line and the
 * profile's home and places are all read with it, so a profile's `germany` fits a job for `Europe`, `new york`
 * fits a job for `United States` and `Sunnyvale` is in the United States.
 */

/** The place index as data/places.json holds it: compact arrays, parsed by placeIndex. */
export interface PlaceData {
  readonly v: 1
  /** `[key, other names, ISO codes of the member countries]`. */
  readonly regions: readonly (readonly [string, readonly string[], readonly string[]])[]
  /** `[ISO code, key, other names]` (in other languages, and the abbreviations boards write). */
  readonly countries: readonly (readonly [string, string, readonly string[]])[]
  /** States and provinces: `[key, ISO code of the country, postal abbreviation or '', other names]`. */
  readonly admins: readonly (readonly [string, string, string, readonly string[]])[]
  /**
   * `[key, ISO code of the country, index of the state or -1, population, its own other names, its alternate
   * names]`, largest first. A place's own name outranks another place's alternate name (York, not Toronto).
   */
  readonly cities: readonly (readonly [string, string, number, number, readonly string[], readonly string[]])[]
  /** The names that are common words too (Mobile, Reading, Nice): a title or a statement does not read them. */
  readonly words: readonly string[]
}

/** The places scoring knows, read from names; every place is named by a key (`germany`, `sunnyvale`, `europe`). */
export interface Places {
  /**
   * The known places a text names (`Remote - US/Canada` -> united states, canada). In a title or a statement line
   * (`inTitle`) a name that is a common word too (`Mobile Developer`, `Lead Engineer`) is not a place; elsewhere
   * such a name counts only when written with a capital (`Reading, UK`).
   */
  placesIn(text: string, options?: {inTitle?: boolean}): string[]
  /** A place as the profile names it, to the known place it stands for (or the name itself when unknown). */
  knownPlace(name: string): string
  /** Whether two places overlap: the same, one inside the other (germany and europe), sharing a country, or everywhere. */
  overlaps(a: string, b: string): boolean
  /** Whether a known place is a city (or a state), not a country or a region. */
  isCity(place: string): boolean
  /** Whether a place is a region of several countries (europe, apac) or everywhere, not a country, state or city. */
  isRegion(place: string): boolean
  /** The places one line of a description (in lower case) restricts applicants to, when it says who may apply. */
  statementPlaces(line: string): string[]
}

/** A place that holds every other: what `anywhere` and `worldwide` name, in a profile or on a board. */
export const EVERYWHERE = 'everywhere'
const EVERYWHERE_NAMES = ['anywhere', 'worldwide', 'anywhere in the world', 'global', 'globally', 'world', EVERYWHERE]

enum Kind {
  Everywhere = 0,
  Region = 1,
  Country = 2,
  Admin = 3,
  City = 4,
}

/**
 * A word of a place name: letters and digits, with inner dots (`u.s.`). Text is read word by word, each word looked
 * up among the names and read on only while the words so far start a longer name, so reading is linear in the text
 * whatever the number of names. scripts/build-places.js writes the names in the same words.
 */
const WORD = /[\p{L}\p{N}]+(?:\.[\p{L}\p{N}]+)*\.?/gu
/** Cities this large are known by their alternate names in a title or a statement too; smaller ones' only elsewhere. */
const FAMOUS_POPULATION = 1_000_000
/**
 * A title or a description line names cities this large or more: smaller cities' names are words of other languages
 * or of trades too often (`como`, `oss`, `auch`, `greenfield`, `roth`), and a job's location field names them anyway.
 */
const NOTABLE_POPULATION = 100_000
/** How many names on either side of an ambiguous one may say which place it is. */
const NEIGHBOURS = 3
/** A state's postal abbreviation or a country's ISO code after a city (`San Jose, CA`, `Sydney, NSW`). */
const QUALIFIER = /^[A-Z]{2,3}$/

/**
 * A line that says who may apply by where they live: "Only candidates local to, and authorized to work in Serbia or
 * Romania", "You must be based in the UK", "open to US residents only", "open to candidates in the US", "we can
 * only hire in the following countries: US, Canada". A company's own whereabouts ("our office is in Berlin") is not
 * one, nor a team hiring in a field ("hiring in our data team").
 */
const WHO_MAY_APPLY =
  /\b(must|only|exclusively|required to|need to)\b.{0,80}\b(based|located|living|live|reside|residing|residents?|authori[sz]ed to work|eligible to work|work permit|right to work)\b|\b(authori[sz]ed|eligible|legally (able|allowed)) to work in\b|\bright to work in\b|\bresidents? of\b.{0,60}\bonly\b|\byou (live|reside|are based|are located|are living) in\b|\bremote\b.{0,20}\bwithin\b|\bopen (only )?to (candidates|applicants|residents|people|talent|anyone)\b.{0,30}\b(in|of|from)\b|\b(hire|hiring|recruit|recruiting) (only )?(in|from)\b(?!.{0,40}\b(team|department|role|field)s?\b)/
/**
 * A line that names places as examples of an open search ("we would happily hire in Europe, Singapore, Chicago, or
 * wherever you are", "where do we hire from? almost everywhere") limits no one.
 */
const OPEN_TO_ALL = /\b(wherever|anywhere|everywhere)\b/
/**
 * A line on pay says where its range applies ("the base salary range is for residents of the United States only"),
 * not who may apply.
 */
const ABOUT_PAY = /\b(salary|salaries|compensation|pay range|base pay|wage|ote)\b/
/** The words one of those lines holds: a reader looks for these first and reads only their lines by the rule. */
export const STATEMENT_WORDS: readonly string[] = [
  'must',
  'only',
  'exclusively',
  'required to',
  'need to',
  'authori',
  'eligible',
  'legally',
  'right to work',
  'resident',
  'you live',
  'you reside',
  'you are based',
  'you are located',
  'you are living',
  'within',
  'open to',
  'hire in',
  'hire from',
  'hiring in',
  'hiring from',
  'recruit',
]
/** Lines longer than this are paragraphs, where a place may be named for anything: only the sentence is read. */
const STATEMENT_LENGTH = 300
/** How far a statement's sentence in a paragraph is read before and after its word. */
const SENTENCE_BEFORE = 140
const SENTENCE_AFTER = 160

/**
 * The text that says who may apply around a statement word at `at` of `text`, and where it ends: its line when the
 * line is short, else the sentence holding the word, at most SENTENCE_BEFORE and SENTENCE_AFTER characters of it on
 * either side (a paragraph run together from a list, "Mostly remote (within Germany), with monthly ..."). Reading is
 * bounded by those lengths, whatever the text's.
 */
export function statementAround(text: string, at: number): {statement: string; end: number} {
  const lineStart = text.lastIndexOf('\n', at) + 1
  const newline = text.indexOf('\n', at)
  const lineEnd = newline === -1 ? text.length : newline
  if (lineEnd - lineStart <= STATEMENT_LENGTH) return {statement: text.slice(lineStart, lineEnd), end: lineEnd}
  let start = Math.max(lineStart, at - SENTENCE_BEFORE)
  for (let i = at - 1; i > start; i--) {
    if (SENTENCE_END.test(text[i - 1]!) && text[i] === ' ') {
      start = i + 1
      break
    }
  }
  let end = Math.min(lineEnd, at + SENTENCE_AFTER)
  for (let i = at; i < end; i++) {
    if (SENTENCE_END.test(text[i]!) && (i + 1 === lineEnd || text[i + 1] === ' ')) {
      end = i + 1
      break
    }
  }
  return {statement: text.slice(start, end), end}
}
const SENTENCE_END = /[.!?]/

/** The places a name may stand for, the likeliest first: the broader kind, then the place's own name, then size. */
interface Named {
  readonly ids: number[]
  /** The places of `ids` a title or a statement reads: countries, regions, states and notable cities. */
  readonly notable: number[]
  /** Whether the name is a common word too, or only an alternate name of a smaller place: not read in titles. */
  readonly word: boolean
}

/** The place index of `data`: pure, built once per scoring command. */
export function placeIndex(data: PlaceData): Places {
  const keys: string[] = []
  const kinds: Kind[] = []
  /** Each place's country (itself for a country), -1 for regions and everywhere. */
  const countryOf: number[] = []
  /** Each city's state, -1 for every other place. */
  const adminOf: number[] = []
  /** Each city's population, 0 for every other place. */
  const populationOf: number[] = []
  const byKey = new Map<string, number>()
  /** Each region's member countries. */
  const members = new Map<number, Set<number>>()
  // A place's own names and other places' alternate names for it, apart: one id or, for a name several places
  // share, their ids. Places are added broadest kind first and cities largest first, so ids in the order they are
  // added are the likeliest first.
  const ownNames = new Map<string, number | number[]>()
  const otherNames = new Map<string, number | number[]>()
  const qualifiers = new Map<string, number[]>()
  const words = new Set(data.words)
  /** Every run of first words of a name of several words (`new`, `new york`): only these are read on. */
  const prefixes = new Set<string>()

  const add = (key: string, kind: Kind, country = -1, admin = -1, population = 0): number => {
    const id = keys.push(key) - 1
    kinds.push(kind)
    countryOf.push(country === -2 ? id : country)
    adminOf.push(admin)
    populationOf.push(population)
    byKey.set(key, id)
    return id
  }
  const name = (text: string, id: number, own: boolean) => {
    const map = own ? ownNames : otherNames
    const before = map.get(text)
    if (before === undefined) {
      map.set(text, id)
      for (let space = text.indexOf(' '); space > 0; space = text.indexOf(' ', space + 1)) {
        prefixes.add(text.slice(0, space))
      }
    } else if (typeof before === 'number') {
      if (before !== id) map.set(text, [before, id])
    } else if (before[before.length - 1] !== id) before.push(id)
  }
  const plain = (key: string) => !key.includes(',')

  const everywhere = add(EVERYWHERE, Kind.Everywhere)
  for (const text of EVERYWHERE_NAMES) name(text, everywhere, true)
  const regionIds: number[] = []
  for (const [key, other] of data.regions) {
    const id = add(key, Kind.Region)
    regionIds.push(id)
    name(key, id, true)
    for (const text of other) name(text, id, false)
  }
  const countryByCode = new Map<string, number>()
  for (const [code, key, other] of data.countries) {
    const id = add(key, Kind.Country, -2)
    countryByCode.set(code, id)
    // A country's names in other languages are its own: the build leaves out those that a large city holds.
    name(key, id, true)
    for (const text of other) name(text, id, true)
    qualifiers.set(code.toLowerCase(), [id])
  }
  data.regions.forEach(([, , codes], at) => {
    const countries = codes.map((code) => countryByCode.get(code)).filter((country) => country !== undefined)
    members.set(regionIds[at]!, new Set(countries))
  })
  const adminIds: number[] = []
  for (const [key, code, postal, other] of data.admins) {
    const id = add(key, Kind.Admin, countryByCode.get(code) ?? -1)
    adminIds.push(id)
    if (plain(key)) name(key, id, true)
    for (const text of other) name(text, id, true)
    if (postal !== '') qualifiers.set(postal.toLowerCase(), [...(qualifiers.get(postal.toLowerCase()) ?? []), id])
  }
  for (const [key, code, admin, population, own, alternates] of data.cities) {
    const id = add(key, Kind.City, countryByCode.get(code) ?? -1, admin >= 0 ? adminIds[admin]! : -1, population)
    if (plain(key)) name(key, id, true)
    for (const text of own) name(text, id, true)
    for (const text of alternates) name(text, id, false)
  }

  /** A name's places, worked out when it is first found in a text (words that name nothing are not kept). */
  const named = new Map<string, Named>()
  const ids = (entry: number | number[] | undefined): number[] =>
    entry === undefined ? [] : typeof entry === 'number' ? [entry] : entry
  const lookup = (text: string): Named | null => {
    let entry = named.get(text)
    if (entry !== undefined) return entry
    const own = ids(ownNames.get(text))
    const other = ids(otherNames.get(text))
    if (own.length === 0 && other.length === 0) return null
    // A place's own name before another's alternate name for it (York, not Toronto).
    const all = own.length === 0 ? other : [...own, ...other.filter((id) => !own.includes(id))]
    // Only another name of a smaller place (Spanish `tarde` for Taranto): read as a word is.
    const obscure =
      own.length === 0 && !other.some((id) => kinds[id]! < Kind.Admin || populationOf[id]! >= FAMOUS_POPULATION)
    const notable = all.filter((id) => kinds[id]! < Kind.City || populationOf[id]! >= NOTABLE_POPULATION)
    entry = {ids: all, notable, word: obscure || words.has(text)}
    named.set(text, entry)
    return entry
  }

  /** Whether place `a` holds place `b` (or is it). */
  const holds = (a: number, b: number): boolean => {
    if (a === b) return true
    switch (kinds[a]) {
      case Kind.Everywhere:
        return true
      case Kind.Region:
        return kinds[b] === Kind.Region
          ? [...members.get(b)!].every((country) => members.get(a)!.has(country))
          : countryOf[b]! >= 0 && members.get(a)!.has(countryOf[b]!)
      case Kind.Country:
        return countryOf[b] === a
      case Kind.Admin:
        return adminOf[b] === a
      default:
        return false
    }
  }
  /** Whether two places overlap: one holds the other, or two regions share a country (EMEA and Europe). */
  const meet = (a: number, b: number): boolean => {
    if (holds(a, b) || holds(b, a)) return true
    if (kinds[a] !== Kind.Region || kinds[b] !== Kind.Region) return false
    const theirs = members.get(b)!
    for (const country of members.get(a)!) if (theirs.has(country)) return true
    return false
  }

  /**
   * The places a text names. Each name found is one occurrence with its possible places; a name several places
   * share (San Jose, Cambridge, Victoria) is the one that meets another place the text names (`San Jose, CA`,
   * `Cambridge, UK`), else the likeliest.
   */
  const read = (text: string, inTitle: boolean, strictCase: boolean): number[] => {
    const found: {ids: readonly number[]; start: number; end: number}[] = []
    const words: string[] = []
    const raws: string[] = []
    const starts: number[] = []
    WORD.lastIndex = 0
    for (let match = WORD.exec(text); match !== null; match = WORD.exec(text)) {
      raws.push(match[0])
      words.push(match[0].toLowerCase())
      starts.push(match.index)
    }
    for (let at = 0; at < words.length; ) {
      // The longest name from here that the text may mean: a name of several words is read on only while its
      // first words are the start of one.
      let hit: readonly number[] | undefined
      let taken = 1
      let key = words[at]!
      for (let size = 1; ; size++) {
        const entry = lookup(key) ?? (key.endsWith('.') ? lookup(key.slice(0, -1)) : null)
        // A name that is also a word is no place in a title or a statement, and elsewhere only with a capital.
        if (
          entry &&
          !(entry.word && (inTitle || (strictCase && !/^\p{Lu}/u.test(raws[at]!)))) &&
          !(inTitle && entry.notable.length === 0)
        ) {
          hit = inTitle ? entry.notable : entry.ids
          taken = size
        }
        if (at + size >= words.length || !prefixes.has(key)) break
        key += ` ${words[at + size]}`
      }
      // A state's or a country's code right after a place and a comma (`Austin, TX`) qualifies it. After a city, a
      // code that is also a country's name (`DE` in `Dover, DE, USA`) may be a state: the places around say which.
      if ((!hit || taken === 1) && !inTitle && QUALIFIER.test(raws[at]!) && found.length > 0) {
        const before = found[found.length - 1]!
        const qualifies = /^\s*,\s*$/.test(text.slice(before.end, starts[at]))
        const codes = qualifies ? qualifiers.get(words[at]!) : undefined
        if (codes && !hit) hit = codes
        else if (codes && hit && before.ids.some((id) => kinds[id] === Kind.City)) {
          const named = hit
          hit = [...named, ...codes.filter((id) => !named.includes(id))]
        }
      }
      if (hit) found.push({ids: hit, start: starts[at]!, end: starts[at + taken - 1]! + raws[at + taken - 1]!.length})
      at += taken
    }
    const places = new Set<number>()
    for (const [index, {ids}] of found.entries()) {
      let chosen = ids[0]!
      if (ids.length > 1 && found.length > 1) {
        // Only the names next to it say which it is (`Austin, Austin, Texas, United States`), and a long list of
        // places is still read in time linear in its length.
        const near = found.slice(Math.max(0, index - NEIGHBOURS), index + NEIGHBOURS + 1)
        // A country is the town of its name (`Mexico, Pampanga`) only by a place next to it after a comma: in a list
        // of countries (`Mexico; Paraguay; Peru; Philippines`) it stays the country.
        const country = kinds[ids[0]!] === Kind.Country
        const beside = (other: (typeof found)[number]) => {
          const [first, second] = other.start < found[index]!.start ? [other, found[index]!] : [found[index]!, other]
          return /^\s*,\s*$/.test(text.slice(first.end, second.start))
        }
        const fits = ids.find((id) =>
          near.some(
            (other) =>
              other !== found[index] &&
              !(country && kinds[id] === Kind.City && !beside(other)) &&
              other.ids.some((place) => place !== id && meet(id, place)),
          ),
        )
        if (fits !== undefined) chosen = fits
      }
      places.add(chosen)
    }
    return [...places]
  }

  const placesIn = (text: string, options: {inTitle?: boolean} = {}): string[] =>
    read(text, options.inTitle ?? false, true).map((id) => keys[id]!)

  const knownPlace = (text: string): string => {
    const lower = text.trim().toLowerCase()
    if (byKey.has(lower)) return lower
    const exact = lookup((lower.match(WORD) ?? []).join(' '))
    if (exact) return keys[exact.ids[0]!]!
    // `San Jose, CA`, `Manila, Philippines`: the narrowest place named.
    const found = read(text, false, false)
    if (found.length === 0) return lower
    return keys[found.reduce((best, id) => (kinds[id]! > kinds[best]! ? id : best))]!
  }

  const overlaps = (a: string, b: string): boolean => {
    if (a === b || a === EVERYWHERE || b === EVERYWHERE) return true
    const one = byKey.get(a)
    const other = byKey.get(b)
    return one !== undefined && other !== undefined && meet(one, other)
  }

  const isCity = (place: string): boolean => {
    const id = byKey.get(place)
    return id !== undefined && kinds[id]! >= Kind.Admin
  }

  const statementPlaces = (line: string): string[] => {
    if (line.length > STATEMENT_LENGTH || !WHO_MAY_APPLY.test(line) || ABOUT_PAY.test(line) || OPEN_TO_ALL.test(line))
      return []
    return placesIn(line, {inTitle: true}).filter((place) => place !== EVERYWHERE)
  }

  const isRegion = (place: string): boolean => {
    if (place === EVERYWHERE) return true
    const id = byKey.get(place)
    return id !== undefined && kinds[id]! <= Kind.Region
  }

  return {placesIn, knownPlace, overlaps, isCity, isRegion, statementPlaces}
}
