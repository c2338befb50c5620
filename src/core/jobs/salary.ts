import * as z from '../zod-mini.js'

/** How often a salary amount is paid. */
const SALARY_PERIODS = ['year', 'month', 'week', 'day', 'hour'] as const
type SalaryPeriod = (typeof SALARY_PERIODS)[number]

// The schema is built with calls marked pure: the web page bundles this module to format salaries and so leaves
// the schema out (esbuild does not see zod's own marks through its re-exports).

/**
 * A job's pay as the board states it, the one definition of it (the API's Salary is derived from it). `min`/`max`
 * are the board's own amounts; `annual_min`/`annual_max` the same amounts per year in the same currency (null when
 * the period is unknown); `text` is what the board wrote when it wrote text. An absent side is null: `up to 120k`
 * has only `max`, `from 50k` only `min`, a single figure both.
 */
export const salarySchema = /* @__PURE__ */ z.object({
  min: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.number()),
  max: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.number()),
  /** ISO 4217 (`USD`, `EUR`), or null when the board names none or an ambiguous symbol (`¥`, `kr`). */
  currency: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
  period: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.enum(SALARY_PERIODS)),
  annual_min: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.number()),
  annual_max: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.number()),
  text: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
})

export type Salary = z.output<typeof salarySchema>

/** Paid periods in a year: 40-hour weeks, 5-day weeks, 52 weeks a year. */
const PERIODS_PER_YEAR: Readonly<Record<SalaryPeriod, number>> = {
  year: 1,
  month: 12,
  week: 52,
  day: 260,
  hour: 2080,
}

/**
 * The ISO 4217 codes in use, fixed here rather than read from `Intl.supportedValuesOf('currency')`: that list
 * follows the ICU data Node was built with, and a code must mean the same on every machine a database moves to.
 */
const ISO_4217 = new Set(
  (
    'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF ' +
    'CHF CLP CNY COP CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD ' +
    'HKD HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD ' +
    'LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP ' +
    'PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT ' +
    'TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VED VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG ZWL'
  ).split(' '),
)

/**
 * Currency symbols and the code each stands for, keyed in upper case. `$` alone is USD: the boards that write it
 * are US-centred, and other dollars carry a prefix (`CA$`, `A$`). `C$` is read as CAD, its common use in job ads.
 * A symbol several currencies share maps to null (a currency is named but not which): `¥` (JPY or CNY), `kr`
 * (SEK, NOK, DKK, ISK), `Rs` (INR, PKR, LKR, NPR).
 */
const CURRENCY_SYMBOLS: Readonly<Record<string, string | null>> = {
  $: 'USD',
  US$: 'USD',
  '€': 'EUR',
  EURO: 'EUR',
  EUROS: 'EUR',
  '£': 'GBP',
  CA$: 'CAD',
  C$: 'CAD',
  A$: 'AUD',
  AU$: 'AUD',
  NZ$: 'NZD',
  HK$: 'HKD',
  S$: 'SGD',
  SG$: 'SGD',
  R$: 'BRL',
  MX$: 'MXN',
  'JP¥': 'JPY',
  'CN¥': 'CNY',
  RMB: 'CNY',
  '₹': 'INR',
  ZŁ: 'PLN',
  KČ: 'CZK',
  '₽': 'RUB',
  '₩': 'KRW',
  '₪': 'ILS',
  '₺': 'TRY',
  '₴': 'UAH',
  '₱': 'PHP',
  '₦': 'NGN',
  '฿': 'THB',
  '₫': 'VND',
  '¥': null,
  KR: null,
  'KR.': null,
  RS: null,
  'RS.': null,
}

/**
 * The ISO 4217 code a board's currency field or symbol names: a real three-letter code in any case (`usd` ->
 * `USD`), or a symbol from CURRENCY_SYMBOLS. Null for anything else, and for symbols several currencies share.
 */
export function currencyCode(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const key = value.trim().toUpperCase()
  if (ISO_4217.has(key)) return key
  return CURRENCY_SYMBOLS[key] ?? null
}

/** Words that name a period, after periodKey removed `per`, `a`, `/`, dots and a Lever `-salary`/`-wage` suffix. */
const PERIOD_WORDS: Readonly<Record<string, SalaryPeriod>> = {
  year: 'year',
  years: 'year',
  yearly: 'year',
  annual: 'year',
  annually: 'year',
  annum: 'year',
  yr: 'year',
  yrs: 'year',
  pa: 'year',
  jahr: 'year',
  jährlich: 'year',
  month: 'month',
  months: 'month',
  monthly: 'month',
  mo: 'month',
  mth: 'month',
  pm: 'month',
  monat: 'month',
  monatlich: 'month',
  week: 'week',
  weeks: 'week',
  weekly: 'week',
  wk: 'week',
  pw: 'week',
  woche: 'week',
  wöchentlich: 'week',
  day: 'day',
  days: 'day',
  daily: 'day',
  pd: 'day',
  tag: 'day',
  täglich: 'day',
  hour: 'hour',
  hours: 'hour',
  hourly: 'hour',
  hr: 'hour',
  hrs: 'hour',
  h: 'hour',
  ph: 'hour',
  stunde: 'hour',
  stündlich: 'hour',
  std: 'hour',
}

function periodKey(value: string): string {
  return value
    .toLowerCase()
    .replace(/[-_\s]+/g, ' ')
    .trim()
    .replace(/^\/\s*/, '')
    .replace(/^(?:per|a|an|each|every|pro|1) /, '')
    .replace(/ (?:salary|wage)$/, '')
    .replace(/\./g, '')
}

/**
 * The period a board's field or a salary's suffix names, case-insensitive: `annual`, `yearly`, `per year`, `p.a.`,
 * `/yr`, `hourly`, `/h`, Lever's `per-year-salary` ... `per-hour-wage`, Ashby's `1 YEAR`, German `pro Jahr`,
 * `monatlich`, `Stunde`. Null for anything else, including Lever's `semi-month-salary`, `bi-week-salary` and
 * `one-time`, which no single period here states.
 */
export function salaryPeriod(value: unknown): SalaryPeriod | null {
  if (typeof value !== 'string') return null
  return PERIOD_WORDS[periodKey(value)] ?? null
}

/** Amounts keep cents; this also removes float noise such as 31.2 * 1000 = 31200.000000000004. */
function roundAmount(value: number): number {
  return Math.round(value * 100) / 100
}

/** A disclosed amount: a positive finite number, or a string of one (`"105000"`, `"105,000"`, `"52.5"`). */
function amountOf(value: unknown): number | null {
  let amount: number
  if (typeof value === 'number') {
    amount = value
  } else if (typeof value === 'string') {
    const plain = value.trim().replace(/,(?=\d{3}(?!\d))/g, '')
    if (!/^\d+(?:\.\d+)?$/.test(plain)) return null
    amount = Number(plain)
  } else {
    return null
  }
  return Number.isFinite(amount) && amount > 0 ? roundAmount(amount) : null
}

function textOf(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const trimmed = value.trim()
  return trimmed === '' ? null : trimmed
}

function annual(amount: number | null, period: SalaryPeriod | null): number | null {
  return amount === null || period === null ? null : roundAmount(amount * PERIODS_PER_YEAR[period])
}

function textOnly(text: string | null): Salary | null {
  if (text === null) return null
  return {min: null, max: null, currency: null, period: null, annual_min: null, annual_max: null, text}
}

function build(
  min: number | null,
  max: number | null,
  currency: string | null,
  period: SalaryPeriod | null,
  text: string | null,
): Salary | null {
  if (min === null && max === null) return textOnly(text)
  // A range written high to low is the same range; swapping keeps both amounts the board gave.
  const [low, high] = min !== null && max !== null && min > max ? [max, min] : [min, max]
  return {
    min: low,
    max: high,
    currency,
    period,
    annual_min: annual(low, period),
    annual_max: annual(high, period),
    text,
  }
}

/**
 * A salary from a board's structured fields (RemoteOK `salary_min`/`salary_max`, Jobicy, Himalayas, Lever
 * `salaryRange`). Amounts may be numbers or numeric strings; 0, negative, NaN or absent means not disclosed, and
 * one side alone is kept as that side. `currency` goes through currencyCode, `period` through salaryPeriod.
 * Without an amount only `text` is kept (currency and period then say nothing); null when there is no text either.
 */
export function salaryFromAmounts(fields: {
  min?: unknown
  max?: unknown
  currency?: unknown
  period?: unknown
  text?: unknown
}): Salary | null {
  return build(
    amountOf(fields.min),
    amountOf(fields.max),
    currencyCode(fields.currency),
    salaryPeriod(fields.period),
    textOf(fields.text),
  )
}

type Token =
  | {kind: 'number'; value: number; multiplier: number}
  | {kind: 'currency'; code: string | null}
  | {kind: 'dash' | 'plus' | 'slash'}
  | {kind: 'word'; word: string}

/**
 * One amount: digits, thousands grouped by one separator repeated (`80,000`, `60.000`, `120'000`, a no-break
 * space) only where exactly three digits follow, then one or two decimals after `.` or `,` (`31,2k`, `22.50`),
 * then `k` (thousand) or `m` (million) not followed by a letter (so `5 month` is no million).
 */
const AMOUNT = /(\d+(?:([.,'\u00a0\u202f])\d{3}(?:\2\d{3})*)?)(?:[.,](\d{1,2}))?(?!\d)(?:\s?([km])(?!\p{L}))?/iuy
const WORD = /\p{L}[\p{L}.']*/uy
const SYMBOLS = Object.keys(CURRENCY_SYMBOLS).sort((a, b) => b.length - a.length)
const SKIPPED = /[\s,;:()[\]*]/
const DASHES = /[-\u2010-\u2015\u2212]/

function symbolAt(text: string, index: number): string | null {
  for (const symbol of SYMBOLS) {
    const candidate = text.slice(index, index + symbol.length)
    if (candidate.toUpperCase() !== symbol) continue
    // A symbol spelled with letters must be a whole word: `kr` is not the start of `kroner`, nor `S$` part of `US$`.
    const last = symbol.at(-1)!
    if (/\p{L}/u.test(last) && /\p{L}/u.test(text[index + symbol.length] ?? '')) continue
    return candidate
  }
  return null
}

function tokenize(text: string): Token[] | null {
  const tokens: Token[] = []
  let index = 0
  while (index < text.length) {
    const character = text[index]!
    if (SKIPPED.test(character)) {
      index += 1
    } else if (/\d/.test(character)) {
      AMOUNT.lastIndex = index
      const match = AMOUNT.exec(text)!
      const integer = match[1]!.replace(/\D/g, '')
      const value = Number(match[3] === undefined ? integer : `${integer}.${match[3]}`)
      const unit = match[4]?.toLowerCase()
      tokens.push({kind: 'number', value, multiplier: unit === 'k' ? 1e3 : unit === 'm' ? 1e6 : 1})
      index = AMOUNT.lastIndex
    } else if (DASHES.test(character)) {
      tokens.push({kind: 'dash'})
      index += 1
    } else if (character === '+') {
      tokens.push({kind: 'plus'})
      index += 1
    } else if (character === '/') {
      tokens.push({kind: 'slash'})
      index += 1
    } else {
      const symbol = symbolAt(text, index)
      if (symbol !== null) {
        tokens.push({kind: 'currency', code: currencyCode(symbol)})
        index += symbol.length
        continue
      }
      WORD.lastIndex = index
      const match = WORD.exec(text)
      if (match === null) return null
      const word = match[0].toLowerCase()
      const code = word.length === 3 ? currencyCode(word) : null
      tokens.push(code === null ? {kind: 'word', word} : {kind: 'currency', code})
      index = WORD.lastIndex
    }
  }
  return tokens
}

/** Words around the amounts that say nothing about them: labels (`Salary:`), OTE, gross, DOE. */
const NOISE = new Set(['salary', 'pay', 'compensation', 'base', 'range', 'rate', 'ote', 'gross', 'brutto', 'doe'])
/** What a `+` or `plus` after the amounts may add without changing them (`$80k - $100k + equity`). */
const EXTRAS = new Set(['equity', 'bonus', 'benefits', 'commission', 'stock', 'options'])
const LINKS = new Set(['per', 'a', 'an', 'each', 'every', 'pro'])
const RANGE_WORDS = new Set(['to', 'bis', 'and'])

type Bound = 'max' | 'min' | null

/** A small cursor over the tokens; `fail` marks text outside the documented forms. */
class Reader {
  index = 0
  period: SalaryPeriod | null = null
  codes = new Set<string>()
  /** The amounts followed `from`, so a range after it (`from $80k to $100k`) is a plain range. */
  from = false
  fail = false
  constructor(private readonly tokens: Token[]) {}

  peek(offset = 0): Token | undefined {
    return this.tokens[this.index + offset]
  }
  word(offset = 0): string | null {
    const token = this.peek(offset)
    return token?.kind === 'word' ? token.word : null
  }
  done(): boolean {
    return this.index >= this.tokens.length
  }

  setPeriod(period: SalaryPeriod): void {
    if (this.period !== null && this.period !== period) this.fail = true
    this.period = period
  }

  /** A currency token, if one is next. */
  currency(): boolean {
    const token = this.peek()
    if (token?.kind !== 'currency') return false
    if (token.code !== null) this.codes.add(token.code)
    this.index += 1
    return true
  }

  /** A period phrase, if one is next: `/hr`, `per year`, `a year`, `pro Jahr`, `hourly`, `p.a.`. */
  periodPhrase(): boolean {
    const token = this.peek()
    const next = this.word(1)
    if ((token?.kind === 'slash' || LINKS.has(this.word() ?? '')) && next !== null) {
      const period = salaryPeriod(next)
      if (period === null) return false
      this.setPeriod(period)
      this.index += 2
      return true
    }
    const period = salaryPeriod(this.word() ?? '')
    if (period === null) return false
    this.setPeriod(period)
    this.index += 1
    return true
  }

  /** Labels and bounds before the amounts: `Salary:`, `OTE`, `up to`, `from`, `starting at`, `Annual`. */
  lead(): Bound {
    let bound: Bound = null
    for (;;) {
      const word = this.word()
      if (word === null) return bound
      const next = this.word(1)
      if (NOISE.has(word) || word === 'between') {
        this.index += 1
      } else if (
        (word === 'up' && next === 'to') ||
        (word === 'bis' && next === 'zu') ||
        (word === 'at' && next === 'least')
      ) {
        bound = word === 'at' ? 'min' : 'max'
        this.index += 2
      } else if (word === 'starting' && (next === 'at' || next === 'from')) {
        bound = 'min'
        this.index += 2
      } else if (['upto', 'max', 'max.', 'maximum'].includes(word)) {
        bound = 'max'
        this.index += 1
      } else if (['from', 'min', 'min.', 'minimum', 'ab'].includes(word)) {
        bound = 'min'
        this.from = word === 'from'
        this.index += 1
      } else if (!this.periodPhrase()) {
        return bound
      }
    }
  }

  /** One side of a range: an amount with its currency before or after it. */
  amount(): {value: number; multiplier: number} | null {
    this.currency()
    const token = this.peek()
    if (token?.kind !== 'number') return null
    this.index += 1
    this.currency()
    return {value: token.value, multiplier: token.multiplier}
  }

  rangeSeparator(): boolean {
    const token = this.peek()
    if (token?.kind === 'dash' || RANGE_WORDS.has(this.word() ?? '')) {
      this.index += 1
      return true
    }
    return false
  }

  /** `+ equity`, `plus bonus`: extras beside the pay. */
  extras(): boolean {
    const token = this.peek()
    if ((token?.kind === 'plus' || this.word() === 'plus') && EXTRAS.has(this.word(1) ?? '')) {
      this.index += 2
      return true
    }
    return false
  }

  /** What may follow the amounts: a currency, a period, extras, noise words. */
  tail(): void {
    while (!this.done() && !this.fail) {
      if (this.currency() || this.periodPhrase() || this.extras()) continue
      if (NOISE.has(this.word() ?? '')) {
        this.index += 1
        continue
      }
      this.fail = true
    }
  }
}

/**
 * A salary from a board's free text (Remotive). Parsed forms, each with a currency before or after the amounts
 * and an optional period phrase: `$80k - $100k`, `$31,2k- $52k`, `$36k`, `$18 - $22/hr`, `80,000-100,000 EUR per
 * year`, `USD 40/hour`, `€60.000 - €80.000`, `£45,000 - £55,000 a year`, `up to $120k`, `from 50000 EUR`,
 * `$100,000+`, `1.5M`, ranges with `-`, `–`, `—`, `to`; labels such as `Salary:`, `OTE`, `gross`, `DOE` and
 * `+ equity` are allowed around them. Any other text keeps only `text` (`Pay per task`, `Competitive`).
 * `text` is always the trimmed original. Null for empty text.
 */
export function parseSalaryText(value: unknown): Salary | null {
  const text = textOf(value)
  if (text === null) return null
  const tokens = tokenize(text.replace(/\.$/, ''))
  if (tokens === null) return textOnly(text)
  const reader = new Reader(tokens)
  let bound = reader.lead()
  const first = reader.amount()
  if (first === null) return textOnly(text)
  let second: {value: number; multiplier: number} | null = null
  if (reader.rangeSeparator()) {
    second = reader.amount()
    if (second === null) return textOnly(text)
    if (bound === 'min' && reader.from) bound = null
    else if (bound !== null) return textOnly(text)
  } else if (reader.peek()?.kind === 'plus' && !EXTRAS.has(reader.word(1) ?? '')) {
    if (bound === 'max') return textOnly(text)
    bound = 'min'
    reader.index += 1
  }
  reader.tail()
  if (reader.fail || reader.codes.size > 1) return textOnly(text)

  // One `k` for the whole range (`80-100k`) applies to the lower side too, when that keeps it the lower side.
  let low = first.value * first.multiplier
  if (second !== null && first.multiplier === 1 && second.multiplier > 1) {
    const scaled = first.value * second.multiplier
    if (scaled <= second.value * second.multiplier) low = scaled
  }
  const lowAmount = amountOf(roundAmount(low))
  const highAmount = second === null ? lowAmount : amountOf(roundAmount(second.value * second.multiplier))
  const [min, max] = bound === 'max' ? [null, lowAmount] : bound === 'min' ? [lowAmount, null] : [lowAmount, highAmount]
  const [currency] = reader.codes
  return build(min, max, currency ?? null, reader.period, text)
}

function digits(amount: number): string {
  const [integer, fraction] = (Number.isInteger(amount) ? amount.toFixed(0) : amount.toFixed(2)).split('.')
  const grouped = integer!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return fraction === undefined ? grouped : `${grouped}.${fraction}`
}

const PER_PERIOD: Readonly<Record<SalaryPeriod, string>> = {
  year: 'a year',
  month: 'a month',
  week: 'a week',
  day: 'a day',
  hour: 'an hour',
}

/**
 * A salary for people: `EUR 70,000 - 90,000 a year`, `USD 40 an hour`, `up to USD 120,000 a year`,
 * `from EUR 50,000`; digits grouped the en-US way whatever the machine's locale. Without amounts, the board's text.
 */
export function formatSalary(salary: Salary): string {
  const {min, max} = salary
  if (min === null && max === null) return salary.text ?? ''
  const currency = salary.currency === null ? '' : `${salary.currency} `
  let amounts: string
  if (min !== null && max !== null) {
    amounts = min === max ? `${currency}${digits(min)}` : `${currency}${digits(min)} - ${digits(max)}`
  } else if (max !== null) {
    amounts = `up to ${currency}${digits(max)}`
  } else {
    amounts = `from ${currency}${digits(min!)}`
  }
  return salary.period === null ? amounts : `${amounts} ${PER_PERIOD[salary.period]}`
}

const PERIOD_SUFFIX: Readonly<Record<SalaryPeriod, string>> = {
  year: '/yr',
  month: '/mo',
  week: '/wk',
  day: '/day',
  hour: '/h',
}

/** `82,500` -> `82.5k`, `1,200,000` -> `1.2M`, `40` -> `40`: an amount in a few characters. */
function shortAmount(value: number): string {
  const [divisor, unit] = value >= 1_000_000 ? [1_000_000, 'M'] : value >= 10_000 ? [1000, 'k'] : [1, '']
  return `${Number((value / divisor).toFixed(1))}${unit}`
}

/**
 * A salary in a list row or a notification line: `USD 70k-110k/yr`, `EUR 45/h`, `up to USD 120k/yr`; the board's
 * text when it gave no amounts.
 */
export function compactSalary(salary: Salary): string {
  const {min, max} = salary
  if (min === null && max === null) return salary.text ?? ''
  const currency = salary.currency === null ? '' : `${salary.currency} `
  const suffix = salary.period === null ? '' : PERIOD_SUFFIX[salary.period]
  if (min !== null && max !== null && min !== max) return `${currency}${shortAmount(min)}-${shortAmount(max)}${suffix}`
  if (min !== null && max !== null) return `${currency}${shortAmount(min)}${suffix}`
  return max !== null
    ? `up to ${currency}${shortAmount(max)}${suffix}`
    : `from ${currency}${shortAmount(min!)}${suffix}`
}

/**
 * The least pay a user wants. `unknown` says what happens to jobs judgeSalary cannot place: kept or dropped.
 */
export interface SalaryFloor {
  amount: number
  currency: string
  period: SalaryPeriod
  unknown: 'keep' | 'drop'
}

/**
 * Where a job's salary stands against a floor, by annual amounts. The top of the job's range (annual_max, else
 * annual_min) decides: a range that reaches the floor is 'above', because the job can pay what the user asks.
 * Another currency converts through `fx`, where `{"USD": 0.92}` means 1 USD is 0.92 of the floor's currency.
 * 'unknown' when there is no salary, no amount, no period, no currency, or no rate for the job's currency.
 */
export function judgeSalary(
  salary: Salary | null,
  floor: SalaryFloor,
  fx: Readonly<Record<string, number>>,
): 'above' | 'below' | 'unknown' {
  if (salary === null || salary.currency === null) return 'unknown'
  const top = salary.annual_max ?? salary.annual_min
  if (top === null) return 'unknown'
  const floorCurrency = floor.currency.toUpperCase()
  const rate = salary.currency === floorCurrency ? 1 : fx[salary.currency]
  if (rate === undefined || !Number.isFinite(rate) || rate <= 0) return 'unknown'
  return top * rate >= floor.amount * PERIODS_PER_YEAR[floor.period] ? 'above' : 'below'
}
