/**
 * What the scorer knows about places: which regions hold which countries, which countries hold which large
 * cities, and the other names they go by. A short table, not a gazetteer: it covers how job boards name where a
 * job is or whom it takes (`Europe`, `LATAM`, `USA`, `Remote - US/Canada`, `Berlin, Germany`), so that a profile's
 * `germany` fits a job for `Europe` and `new york` fits a job for `United States`.
 */
const COUNTRIES: Record<string, {names?: string[]; cities?: string[]}> = {
  germany: {
    names: ['deutschland', 'de'],
    cities: [
      'berlin',
      'munich',
      'münchen',
      'hamburg',
      'frankfurt',
      'cologne',
      'köln',
      'essen',
      'stuttgart',
      'düsseldorf',
      'leipzig',
      'dresden',
      'hannover',
      'nuremberg',
      'nürnberg',
      'augsburg',
      'dortmund',
      'bremen',
    ],
  },
  austria: {names: ['österreich'], cities: ['vienna', 'wien', 'graz', 'linz']},
  switzerland: {names: ['schweiz', 'suisse'], cities: ['zurich', 'zürich', 'geneva', 'lausanne', 'basel', 'bern']},
  france: {cities: ['paris', 'lyon', 'toulouse', 'marseille', 'lille', 'nantes', 'bordeaux']},
  spain: {names: ['españa'], cities: ['madrid', 'barcelona', 'valencia', 'seville', 'málaga', 'malaga']},
  portugal: {cities: ['lisbon', 'lisboa', 'porto']},
  italy: {names: ['italia'], cities: ['milan', 'milano', 'rome', 'roma', 'turin', 'torino', 'bologna']},
  netherlands: {
    names: ['the netherlands', 'holland', 'nl'],
    cities: ['amsterdam', 'rotterdam', 'utrecht', 'eindhoven', 'the hague'],
  },
  belgium: {cities: ['brussels', 'antwerp', 'ghent']},
  luxembourg: {},
  ireland: {cities: ['dublin', 'cork']},
  'united kingdom': {
    names: ['uk', 'great britain', 'britain', 'england', 'scotland', 'wales'],
    cities: ['london', 'manchester', 'edinburgh', 'bristol', 'cambridge', 'oxford', 'leeds', 'glasgow'],
  },
  poland: {
    names: ['polska'],
    cities: ['warsaw', 'krakow', 'kraków', 'wroclaw', 'wrocław', 'gdansk', 'gdańsk', 'poznan'],
  },
  czechia: {names: ['czech republic'], cities: ['prague', 'brno']},
  slovakia: {cities: ['bratislava']},
  hungary: {cities: ['budapest']},
  romania: {cities: ['bucharest', 'cluj']},
  bulgaria: {cities: ['sofia']},
  greece: {cities: ['athens']},
  croatia: {cities: ['zagreb']},
  slovenia: {cities: ['ljubljana']},
  serbia: {cities: ['belgrade']},
  denmark: {cities: ['copenhagen', 'aarhus']},
  sweden: {cities: ['stockholm', 'gothenburg', 'göteborg', 'malmö', 'malmo']},
  norway: {cities: ['oslo', 'bergen']},
  finland: {cities: ['helsinki', 'tampere']},
  iceland: {cities: ['reykjavik']},
  estonia: {cities: ['tallinn']},
  latvia: {cities: ['riga']},
  lithuania: {cities: ['vilnius']},
  ukraine: {cities: ['kyiv', 'kiev', 'lviv']},
  cyprus: {},
  malta: {},
  'united states': {
    names: ['usa', 'us', 'u.s.', 'united states of america', 'america'],
    cities: [
      'new york',
      'nyc',
      'san francisco',
      'seattle',
      'austin',
      'boston',
      'chicago',
      'los angeles',
      'denver',
      'atlanta',
      'miami',
      'washington',
      'santa clara',
      'san jose',
      'charlotte',
      'dallas',
      'houston',
      'portland',
      'philadelphia',
      'north carolina',
      'california',
      'texas',
      'florida',
      'new jersey',
    ],
  },
  canada: {cities: ['toronto', 'vancouver', 'montreal', 'montréal', 'ottawa', 'calgary']},
  mexico: {names: ['méxico'], cities: ['mexico city', 'guadalajara', 'monterrey']},
  brazil: {names: ['brasil'], cities: ['são paulo', 'sao paulo', 'rio de janeiro', 'campinas', 'belo horizonte']},
  argentina: {cities: ['buenos aires']},
  chile: {cities: ['santiago']},
  colombia: {cities: ['bogotá', 'bogota', 'medellín', 'medellin']},
  peru: {cities: ['lima']},
  uruguay: {cities: ['montevideo']},
  india: {cities: ['bangalore', 'bengaluru', 'mumbai', 'delhi', 'hyderabad', 'pune', 'chennai']},
  singapore: {},
  japan: {cities: ['tokyo', 'osaka']},
  'hong kong': {},
  taiwan: {cities: ['taipei']},
  china: {cities: ['beijing', 'shanghai', 'shenzhen']},
  'south korea': {names: ['korea'], cities: ['seoul']},
  philippines: {cities: ['manila']},
  indonesia: {cities: ['jakarta']},
  vietnam: {cities: ['ho chi minh city', 'hanoi']},
  israel: {cities: ['tel aviv', 'jerusalem']},
  'united arab emirates': {names: ['uae'], cities: ['dubai', 'abu dhabi']},
  australia: {cities: ['sydney', 'melbourne', 'brisbane', 'perth']},
  'new zealand': {cities: ['auckland', 'wellington']},
  'south africa': {cities: ['cape town', 'johannesburg']},
  nigeria: {cities: ['lagos']},
  kenya: {cities: ['nairobi']},
  egypt: {cities: ['cairo']},
}

/** Regions, the other names boards give them, and their countries. */
const REGIONS: Record<string, {names?: string[]; countries: string[]}> = {
  europe: {
    names: ['eu', 'european union', 'emea', 'eea'],
    countries: [
      'germany',
      'austria',
      'switzerland',
      'france',
      'spain',
      'portugal',
      'italy',
      'netherlands',
      'belgium',
      'luxembourg',
      'ireland',
      'united kingdom',
      'poland',
      'czechia',
      'slovakia',
      'hungary',
      'romania',
      'bulgaria',
      'greece',
      'croatia',
      'slovenia',
      'serbia',
      'denmark',
      'sweden',
      'norway',
      'finland',
      'iceland',
      'estonia',
      'latvia',
      'lithuania',
      'ukraine',
      'cyprus',
      'malta',
    ],
  },
  'north america': {names: ['na'], countries: ['united states', 'canada', 'mexico']},
  'latin america': {
    names: ['latam', 'south america', 'central america'],
    countries: ['mexico', 'brazil', 'argentina', 'chile', 'colombia', 'peru', 'uruguay'],
  },
  americas: {
    countries: ['united states', 'canada', 'mexico', 'brazil', 'argentina', 'chile', 'colombia', 'peru', 'uruguay'],
  },
  asia: {
    names: ['apac', 'asia pacific'],
    countries: [
      'india',
      'singapore',
      'japan',
      'hong kong',
      'taiwan',
      'china',
      'south korea',
      'philippines',
      'indonesia',
      'vietnam',
      'israel',
      'united arab emirates',
    ],
  },
  oceania: {names: ['anz'], countries: ['australia', 'new zealand']},
  africa: {countries: ['south africa', 'nigeria', 'kenya', 'egypt']},
}

/** Every name a place goes by, to the places it stands for (a name can be a region, a country or a city). */
const NAMED = new Map<string, string>()
/** Every place and the places inside it, itself included. */
const INSIDE = new Map<string, Set<string>>()

function inside(place: string): Set<string> {
  let set = INSIDE.get(place)
  if (!set) {
    set = new Set([place])
    INSIDE.set(place, set)
  }
  return set
}

/** The places that are cities (or states), as opposed to countries and regions. */
const CITIES = new Set<string>()

for (const [country, {names = [], cities = []}] of Object.entries(COUNTRIES)) {
  NAMED.set(country, country)
  for (const name of names) NAMED.set(name, country)
  for (const city of cities) {
    CITIES.add(city)
    NAMED.set(city, city)
    inside(country).add(city)
    inside(city)
  }
}
for (const [region, {names = [], countries}] of Object.entries(REGIONS)) {
  NAMED.set(region, region)
  for (const name of names) NAMED.set(name, region)
  for (const country of countries) for (const place of inside(country)) inside(region).add(place)
}

/** A place that holds every other: what `anywhere` and `worldwide` name, in a profile or on a board. */
export const EVERYWHERE = 'everywhere'
for (const name of ['anywhere', 'worldwide', 'anywhere in the world', 'global', 'globally', 'world', EVERYWHERE]) {
  NAMED.set(name, EVERYWHERE)
}

/**
 * A word of a place name: letters and digits, with inner dots (`u.s.`). Text is read word by word and each run of
 * up to NAME_WORDS words looked up among the names, longest first: one pattern of some 400 names with Unicode
 * word edges took about 15 µs for a title of 30 characters, trying every name at every position.
 */
const WORD = /[\p{L}\p{N}]+(?:\.[\p{L}\p{N}]+)*\.?/gu
/** The most words a name has (`united states of america`, `anywhere in the world`). */
const NAME_WORDS = Math.max(...[...NAMED.keys()].map((name) => name.split(' ').length))
/** The first words of the names of several words: only at these is a longer name tried. */
const FIRST_WORDS = new Set([...NAMED.keys()].filter((name) => name.includes(' ')).map((name) => name.split(' ')[0]!))

/** Short names that are also common words of titles in other languages (`Ingeniero de Software`). */
const WORDS_TOO = new Set(['de', 'na', 'nl'])

/**
 * The known places a text names (`Remote - US/Canada` -> united states, canada). In a title (`inTitle`), names
 * that are also common words do not count.
 */
export function placesIn(text: string, options: {inTitle?: boolean} = {}): string[] {
  const found = new Set<string>()
  const words = text.toLowerCase().match(WORD) ?? []
  for (let at = 0; at < words.length; ) {
    let taken = 1
    const longest = FIRST_WORDS.has(words[at]!) ? Math.min(NAME_WORDS, words.length - at) : 1
    for (let size = longest; size >= 1; size--) {
      const name = nameOf(words, at, size)
      if (options.inTitle && WORDS_TOO.has(name)) continue
      const place = NAMED.get(name) ?? (name.endsWith('.') ? NAMED.get(name.slice(0, -1)) : undefined)
      if (place) {
        found.add(place)
        taken = size
        break
      }
    }
    at += taken
  }
  return [...found]
}

/** `size` words from `at`, as the names are written: one space between them. */
function nameOf(words: readonly string[], at: number, size: number): string {
  if (size === 1) return words[at]!
  let name = words[at]!
  for (let next = at + 1; next < at + size; next++) name += ` ${words[next]}`
  return name
}

/** A place as the profile names it, to the known place it stands for (or the name itself when unknown). */
export function knownPlace(name: string): string {
  return NAMED.get(name.trim().toLowerCase()) ?? name.trim().toLowerCase()
}

/** Whether two places overlap: the same, one inside the other (germany and europe, new york and usa), or everywhere. */
export function overlaps(a: string, b: string): boolean {
  return (
    a === b ||
    a === EVERYWHERE ||
    b === EVERYWHERE ||
    (INSIDE.get(a)?.has(b) ?? false) ||
    (INSIDE.get(b)?.has(a) ?? false)
  )
}

/**
 * A line that says who may apply by where they live: "Only candidates local to, and authorized to work in Serbia or
 * Romania", "You must be based in the UK", "open to US residents only". A company's own whereabouts ("our office
 * is in Berlin") is not one.
 */
const WHO_MAY_APPLY =
  /\b(must|only|exclusively|required to|need to)\b.{0,80}\b(based|located|living|live|reside|residing|residents?|authori[sz]ed to work|eligible to work|work permit|right to work)\b|\b(authori[sz]ed|eligible|legally (able|allowed)) to work in\b|\bright to work in\b|\bresidents? of\b.{0,60}\bonly\b/
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
]
/** Lines longer than this are paragraphs, where a place may be named for anything. */
const STATEMENT_LENGTH = 300

/**
 * The places one line of a description (in lower case) restricts applicants to, when it says who may apply; []
 * when it does not. The rule is bounded: a line is read once.
 */
export function statementPlaces(line: string): string[] {
  if (line.length > STATEMENT_LENGTH || !WHO_MAY_APPLY.test(line)) return []
  return placesIn(line, {inTitle: true}).filter((place) => place !== EVERYWHERE)
}

/** Whether a known place is a city (or a state), not a country or a region. */
export const isCity = (place: string): boolean => CITIES.has(place)
