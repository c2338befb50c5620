import {describe, expect, it} from 'vitest'
import {
  compactSalary,
  currencyCode,
  formatSalary,
  judgeSalary,
  parseSalaryText,
  type Salary,
  type SalaryFloor,
  salaryFromAmounts,
  salaryPeriod,
} from '../../../src/core/jobs/salary.js'
import {fixtureJson} from '../../helpers/source-fixtures.js'

/** A salary with every field stated: the tests compare whole objects. */
function salary(
  min: number | null,
  max: number | null,
  currency: string | null,
  period: Salary['period'],
  annual_min: number | null,
  annual_max: number | null,
  text: string | null,
): Salary {
  return {min, max, currency, period, annual_min, annual_max, text}
}

const textOnly = (text: string): Salary => salary(null, null, null, null, null, null, text)

/** Every distinct non-empty `salary` of the Remotive capture, with what it says. */
const REMOTIVE: [string, Salary][] = [
  ['$18 - $22/hr', salary(18, 22, 'USD', 'hour', 37_440, 45_760, '$18 - $22/hr')],
  ['$36k', salary(36_000, 36_000, 'USD', null, null, null, '$36k')],
  ['$120 - $170 /hour', salary(120, 170, 'USD', 'hour', 249_600, 353_600, '$120 - $170 /hour')],
  ['$31,2k- $52k', salary(31_200, 52_000, 'USD', null, null, null, '$31,2k- $52k')],
  ['$80k - $100k', salary(80_000, 100_000, 'USD', null, null, null, '$80k - $100k')],
  ['$55k - $100k', salary(55_000, 100_000, 'USD', null, null, null, '$55k - $100k')],
  // No period stated: a month is not assumed even where a year would be implausible.
  ['$3k - $10k', salary(3_000, 10_000, 'USD', null, null, null, '$3k - $10k')],
  ['$50-$75 /hour', salary(50, 75, 'USD', 'hour', 104_000, 156_000, '$50-$75 /hour')],
]

const OTHER_FORMS: [string, Salary | null][] = [
  [
    '80,000-100,000 EUR per year',
    salary(80_000, 100_000, 'EUR', 'year', 80_000, 100_000, '80,000-100,000 EUR per year'),
  ],
  ['USD 40/hour', salary(40, 40, 'USD', 'hour', 83_200, 83_200, 'USD 40/hour')],
  ['€60.000 - €80.000', salary(60_000, 80_000, 'EUR', null, null, null, '€60.000 - €80.000')],
  ['£45,000 - £55,000 a year', salary(45_000, 55_000, 'GBP', 'year', 45_000, 55_000, '£45,000 - £55,000 a year')],
  ['90k-110k EUR', salary(90_000, 110_000, 'EUR', null, null, null, '90k-110k EUR')],
  // On-target earnings: the stated figures are parsed, the text keeps the OTE wording.
  ['OTE $25k - $35k', salary(25_000, 35_000, 'USD', null, null, null, 'OTE $25k - $35k')],
  ['Pay per task', textOnly('Pay per task')],
  ['Competitive', textOnly('Competitive')],
  ['DOE', textOnly('DOE')],
  ['up to $120k', salary(null, 120_000, 'USD', null, null, null, 'up to $120k')],
  ['from 50000 EUR', salary(50_000, null, 'EUR', null, null, null, 'from 50000 EUR')],
  ['$100,000+', salary(100_000, null, 'USD', null, null, null, '$100,000+')],
  ['1.5M', salary(1_500_000, 1_500_000, null, null, null, null, '1.5M')],
  ['$80k to $100k', salary(80_000, 100_000, 'USD', null, null, null, '$80k to $100k')],
  ['$80k – $100k', salary(80_000, 100_000, 'USD', null, null, null, '$80k – $100k')],
  ['$80k — $100k', salary(80_000, 100_000, 'USD', null, null, null, '$80k — $100k')],
  ['from $80k to $100k', salary(80_000, 100_000, 'USD', null, null, null, 'from $80k to $100k')],
  ['  $70k - $90k per year  ', salary(70_000, 90_000, 'USD', 'year', 70_000, 90_000, '$70k - $90k per year')],
  // One k for the whole range applies to the lower side; it does not where that would make it the higher one.
  ['80-100k', salary(80_000, 100_000, null, null, null, null, '80-100k')],
  ['$500 - $1k', salary(500, 1_000, 'USD', null, null, null, '$500 - $1k')],
  ['$100k - $80k', salary(80_000, 100_000, 'USD', null, null, null, '$100k - $80k')],
  ['$22.50/hr', salary(22.5, 22.5, 'USD', 'hour', 46_800, 46_800, '$22.50/hr')],
  ['€4.500 brutto monatlich', salary(4_500, 4_500, 'EUR', 'month', 54_000, 54_000, '€4.500 brutto monatlich')],
  ['ab 50.000 € pro Jahr', salary(50_000, null, 'EUR', 'year', 50_000, null, 'ab 50.000 € pro Jahr')],
  ["CHF 120'000 p.a.", salary(120_000, 120_000, 'CHF', 'year', 120_000, 120_000, "CHF 120'000 p.a.")],
  ['CA$90k - CA$110k', salary(90_000, 110_000, 'CAD', null, null, null, 'CA$90k - CA$110k')],
  ['US$ 50/h', salary(50, 50, 'USD', 'hour', 104_000, 104_000, 'US$ 50/h')],
  ['$400 per day', salary(400, 400, 'USD', 'day', 104_000, 104_000, '$400 per day')],
  ['$2,000 weekly', salary(2_000, 2_000, 'USD', 'week', 104_000, 104_000, '$2,000 weekly')],
  [
    'Salary: $90,000 - $110,000 (DOE)',
    salary(90_000, 110_000, 'USD', null, null, null, 'Salary: $90,000 - $110,000 (DOE)'),
  ],
  ['Annual salary: £50k + bonus', salary(50_000, 50_000, 'GBP', 'year', 50_000, 50_000, 'Annual salary: £50k + bonus')],
  [
    'between 60,000 and 70,000 zł a year',
    salary(60_000, 70_000, 'PLN', 'year', 60_000, 70_000, 'between 60,000 and 70,000 zł a year'),
  ],
  // A symbol several currencies share names no currency; the amounts are still the board's.
  ['¥500,000 a month', salary(500_000, 500_000, null, 'month', 6_000_000, 6_000_000, '¥500,000 a month')],
  // Outside the documented forms only the text is kept.
  ['$80k - 100k GBP', textOnly('$80k - 100k GBP')],
  ['401k match', textOnly('401k match')],
  ['20% bonus', textOnly('20% bonus')],
  ['$80k - $100k + 2 weeks', textOnly('$80k - $100k + 2 weeks')],
  ['$80k per task', textOnly('$80k per task')],
  ['$40/hour or $6,000 a month', textOnly('$40/hour or $6,000 a month')],
  ['up to $80k - $100k', textOnly('up to $80k - $100k')],
  ['$0', textOnly('$0')],
  ['', null],
  ['   ', null],
]

describe('parseSalaryText', () => {
  it.each(REMOTIVE)('reads Remotive %j', (text, expected) => {
    expect(parseSalaryText(text)).toEqual(expected)
  })

  it.each(OTHER_FORMS)('reads %j', (text, expected) => {
    expect(parseSalaryText(text)).toEqual(expected)
  })

  it('covers every distinct salary in the Remotive capture', () => {
    const capture = fixtureJson<{jobs: {salary: string}[]}>('remotive.json')
    const distinct = [...new Set(capture.jobs.map((job) => job.salary))].filter((text) => text !== '').sort()
    expect(distinct).toEqual(REMOTIVE.map(([text]) => text).sort())
    expect(capture.jobs.some((job) => job.salary === '')).toBe(true)
    expect(parseSalaryText('')).toBeNull()
  })

  it('is null for values that are not strings', () => {
    expect(parseSalaryText(null)).toBeNull()
    expect(parseSalaryText(undefined)).toBeNull()
    expect(parseSalaryText(80_000)).toBeNull()
  })
})

describe('salaryFromAmounts', () => {
  it('reads RemoteOK amounts, where 0 means not disclosed', () => {
    const capture = fixtureJson<{id?: string; salary_min?: number; salary_max?: number}[]>('remoteok.json')
    const jobs = capture.filter((job) => job.id !== undefined)
    const salaries = jobs.map((job) => salaryFromAmounts({min: job.salary_min, max: job.salary_max, currency: 'USD'}))
    expect(salaries).toContain(null)
    expect(salaries[0]).toEqual(salary(70_000, 110_000, 'USD', null, null, null, null))
    expect(salaryFromAmounts({min: 0, max: 0, currency: 'USD'})).toBeNull()
    expect(salaryFromAmounts({min: 0, max: 90_000, currency: 'USD'})).toEqual(
      salary(null, 90_000, 'USD', null, null, null, null),
    )
  })

  it('reads Jobicy 2024 string amounts and 2026 numbers with a period', () => {
    const capture = fixtureJson<{
      jobs: {annualSalaryMin?: string; annualSalaryMax?: string; salaryCurrency?: string}[]
    }>('jobicy.json')
    const job = capture.jobs.find((entry) => entry.annualSalaryMin !== undefined)!
    expect(
      salaryFromAmounts({
        min: job.annualSalaryMin,
        max: job.annualSalaryMax,
        currency: job.salaryCurrency,
        period: 'year',
      }),
    ).toEqual(salary(105_000, 157_000, 'USD', 'year', 105_000, 157_000, null))
    expect(salaryFromAmounts({min: 1_500, max: 2_500, currency: 'EUR', period: 'monthly'})).toEqual(
      salary(1_500, 2_500, 'EUR', 'month', 18_000, 30_000, null),
    )
    expect(salaryFromAmounts({min: '52.5', max: '1,000', currency: 'usd', period: 'hourly'})).toEqual(
      salary(52.5, 1_000, 'USD', 'hour', 109_200, 2_080_000, null),
    )
  })

  it('reads Himalayas amounts: a 50/50 hourly rate and absent amounts', () => {
    const capture = fixtureJson<{
      jobs: {minSalary: number | null; maxSalary: number | null; salaryPeriod: string; currency: string | null}[]
    }>('himalayas.json')
    const salaries = capture.jobs.map((job) =>
      salaryFromAmounts({min: job.minSalary, max: job.maxSalary, currency: job.currency, period: job.salaryPeriod}),
    )
    expect(salaries).toEqual([
      null,
      null,
      salary(50, 50, 'USD', 'hour', 104_000, 104_000, null),
      salary(184_000, 356_500, 'USD', 'year', 184_000, 356_500, null),
    ])
  })

  it('reads a Lever salaryRange', () => {
    const capture =
      fixtureJson<{salaryRange?: {min: number; max: number; currency: string; interval: string}}[]>('lever.json')
    const range = capture[0]!.salaryRange!
    expect(
      salaryFromAmounts({min: range.min, max: range.max, currency: range.currency, period: range.interval}),
    ).toEqual(salary(200_000, 270_000, 'USD', 'year', 200_000, 270_000, null))
    expect(salaryFromAmounts({min: 30, max: 40, currency: 'USD', period: 'per-hour-wage'})).toEqual(
      salary(30, 40, 'USD', 'hour', 62_400, 83_200, null),
    )
    expect(salaryFromAmounts({min: 3_000, max: 4_000, currency: 'USD', period: 'bi-week-salary'})).toEqual(
      salary(3_000, 4_000, 'USD', null, null, null, null),
    )
  })

  it('keeps one side alone, swaps a reversed range and treats bad amounts as undisclosed', () => {
    expect(salaryFromAmounts({min: 60_000, currency: 'EUR', period: 'year'})).toEqual(
      salary(60_000, null, 'EUR', 'year', 60_000, null, null),
    )
    expect(salaryFromAmounts({max: '80000', currency: 'GBP'})).toEqual(
      salary(null, 80_000, 'GBP', null, null, null, null),
    )
    expect(salaryFromAmounts({min: 90_000, max: 70_000, currency: '$', period: 'annual'})).toEqual(
      salary(70_000, 90_000, 'USD', 'year', 70_000, 90_000, null),
    )
    for (const bad of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, '', 'abc', '12k', '0', null, undefined, {}]) {
      expect(salaryFromAmounts({min: bad, max: bad, currency: 'USD'})).toBeNull()
    }
    expect(salaryFromAmounts({min: 50_000, currency: 'XYZ', period: 'fortnightly'})).toEqual(
      salary(50_000, null, null, null, null, null, null),
    )
  })

  it('keeps the text, and only the text when there is no amount', () => {
    expect(salaryFromAmounts({min: 100, max: 120, currency: 'USD', period: 'day', text: ' $100-120 a day '})).toEqual(
      salary(100, 120, 'USD', 'day', 26_000, 31_200, '$100-120 a day'),
    )
    expect(salaryFromAmounts({currency: 'USD', period: 'year', text: 'Competitive'})).toEqual(textOnly('Competitive'))
    expect(salaryFromAmounts({currency: 'USD', period: 'year', text: '  '})).toBeNull()
  })
})

describe('salaryPeriod', () => {
  it.each([
    ['annual', 'year'],
    ['Annually', 'year'],
    ['yearly', 'year'],
    ['YEAR', 'year'],
    ['per year', 'year'],
    ['per annum', 'year'],
    ['p.a.', 'year'],
    ['pa', 'year'],
    ['/yr', 'year'],
    ['per-year-salary', 'year'],
    ['1 YEAR', 'year'],
    ['pro Jahr', 'year'],
    ['monthly', 'month'],
    ['per-month-salary', 'month'],
    ['a month', 'month'],
    ['/mo', 'month'],
    ['weekly', 'week'],
    ['per-week-salary', 'week'],
    ['daily', 'day'],
    ['per-day-wage', 'day'],
    ['day', 'day'],
    ['hourly', 'hour'],
    ['per-hour-wage', 'hour'],
    ['Hour', 'hour'],
    ['hr', 'hour'],
    ['/h', 'hour'],
    ['an hour', 'hour'],
    ['pro Stunde', 'hour'],
  ])('%j is %s', (value, expected) => {
    expect(salaryPeriod(value)).toBe(expected)
  })

  it.each(['semi-month-salary', 'bi-week-salary', 'one-time', 'fortnightly', 'task', '', 'per'])(
    '%j is no period',
    (value) => {
      expect(salaryPeriod(value)).toBeNull()
    },
  )

  it('is null for values that are not strings', () => {
    expect(salaryPeriod(null)).toBeNull()
    expect(salaryPeriod(12)).toBeNull()
  })
})

describe('currencyCode', () => {
  it.each([
    ['USD', 'USD'],
    ['usd', 'USD'],
    [' eur ', 'EUR'],
    ['CHF', 'CHF'],
    ['JPY', 'JPY'],
    ['$', 'USD'],
    ['US$', 'USD'],
    ['€', 'EUR'],
    ['£', 'GBP'],
    ['CA$', 'CAD'],
    ['C$', 'CAD'],
    ['A$', 'AUD'],
    ['AU$', 'AUD'],
    ['zł', 'PLN'],
    ['₹', 'INR'],
    ['R$', 'BRL'],
  ])('%j is %s', (value, expected) => {
    expect(currencyCode(value)).toBe(expected)
  })

  it.each(['¥', 'kr', 'Rs', 'XYZ', 'US', 'DOLLARS', '', '$$'])('%j names no one currency', (value) => {
    expect(currencyCode(value)).toBeNull()
  })

  it('is null for values that are not strings', () => {
    expect(currencyCode(null)).toBeNull()
    expect(currencyCode(840)).toBeNull()
  })
})

describe('formatSalary', () => {
  it.each([
    [salary(70_000, 90_000, 'EUR', 'year', 70_000, 90_000, null), 'EUR 70,000 - 90,000 a year'],
    [salary(40, 40, 'USD', 'hour', 83_200, 83_200, 'USD 40/hour'), 'USD 40 an hour'],
    [salary(120_000, 120_000, 'USD', 'year', 120_000, 120_000, null), 'USD 120,000 a year'],
    [salary(null, 120_000, 'USD', 'year', null, 120_000, null), 'up to USD 120,000 a year'],
    [salary(50_000, null, 'EUR', null, null, null, 'from 50000 EUR'), 'from EUR 50,000'],
    [salary(3_000, 10_000, 'USD', null, null, null, '$3k - $10k'), 'USD 3,000 - 10,000'],
    [salary(22.5, 30, 'USD', 'hour', 46_800, 62_400, null), 'USD 22.50 - 30 an hour'],
    [salary(4_500, 4_500, 'EUR', 'month', 54_000, 54_000, null), 'EUR 4,500 a month'],
    [salary(400, 500, 'GBP', 'day', 104_000, 130_000, null), 'GBP 400 - 500 a day'],
    [salary(2_000, 2_000, 'USD', 'week', 104_000, 104_000, null), 'USD 2,000 a week'],
    [salary(1_500_000, 1_500_000, null, null, null, null, '1.5M'), '1,500,000'],
    [textOnly('Pay per task'), 'Pay per task'],
    [salary(null, null, null, null, null, null, null), ''],
  ])('%j reads %j', (value, expected) => {
    expect(formatSalary(value)).toBe(expected)
  })
})

describe('judgeSalary', () => {
  const floor: SalaryFloor = {amount: 80_000, currency: 'EUR', period: 'year', unknown: 'keep'}
  const eur = (min: number | null, max: number | null, period: Salary['period'] = 'year') =>
    salaryFromAmounts({min, max, currency: 'EUR', period})

  it('is above when the top of the range reaches the floor, below when it does not', () => {
    expect(judgeSalary(eur(70_000, 90_000), floor, {})).toBe('above')
    expect(judgeSalary(eur(60_000, 80_000), floor, {})).toBe('above')
    expect(judgeSalary(eur(60_000, 79_999), floor, {})).toBe('below')
    expect(judgeSalary(eur(85_000, null), floor, {})).toBe('above')
    expect(judgeSalary(eur(75_000, null), floor, {})).toBe('below')
    expect(judgeSalary(eur(null, 80_000), floor, {})).toBe('above')
  })

  it('converts another currency through fx, and cannot judge it without a rate', () => {
    const usd = salaryFromAmounts({min: 80_000, max: 90_000, currency: 'USD', period: 'year'})
    expect(judgeSalary(usd, floor, {USD: 0.92})).toBe('above')
    expect(judgeSalary(usd, floor, {USD: 0.85})).toBe('below')
    expect(judgeSalary(usd, floor, {})).toBe('unknown')
    expect(judgeSalary(usd, floor, {GBP: 1.17})).toBe('unknown')
    expect(judgeSalary(usd, floor, {USD: 0})).toBe('unknown')
    expect(judgeSalary(usd, floor, {USD: Number.NaN})).toBe('unknown')
  })

  it('compares hourly pay with a yearly floor and a yearly salary with an hourly floor by annual amounts', () => {
    expect(judgeSalary(eur(35, 40, 'hour'), floor, {})).toBe('above')
    expect(judgeSalary(eur(30, 38, 'hour'), floor, {})).toBe('below')
    const hourlyFloor: SalaryFloor = {amount: 40, currency: 'eur', period: 'hour', unknown: 'drop'}
    expect(judgeSalary(eur(70_000, 83_200), hourlyFloor, {})).toBe('above')
    expect(judgeSalary(eur(70_000, 83_199), hourlyFloor, {})).toBe('below')
    expect(judgeSalary(eur(7_000, 7_000, 'month'), hourlyFloor, {})).toBe('above')
  })

  it('cannot judge without a salary, amounts, a period or a currency', () => {
    expect(judgeSalary(null, floor, {})).toBe('unknown')
    expect(judgeSalary(textOnly('Competitive'), floor, {})).toBe('unknown')
    expect(judgeSalary(eur(90_000, 100_000, null), floor, {})).toBe('unknown')
    expect(judgeSalary(parseSalaryText('¥20,000,000 a year'), floor, {JPY: 0.006})).toBe('unknown')
    expect(judgeSalary(parseSalaryText('€90k - €100k'), floor, {})).toBe('unknown')
    expect(judgeSalary(parseSalaryText('€90k - €100k a year'), floor, {})).toBe('above')
  })
})

describe('compactSalary', () => {
  const of = (fields: Parameters<typeof salaryFromAmounts>[0]) => compactSalary(salaryFromAmounts(fields)!)
  it('says a salary in a few characters for list rows and notification lines', () => {
    expect(of({min: 70000, max: 110000, currency: 'USD', period: 'year'})).toBe('USD 70k-110k/yr')
    expect(of({min: 82500, max: 82500, currency: 'EUR', period: 'year'})).toBe('EUR 82.5k/yr')
    expect(of({min: 45, max: 60, currency: 'GBP', period: 'hour'})).toBe('GBP 45-60/h')
    expect(of({max: 1_200_000, currency: 'INR', period: 'year'})).toBe('up to INR 1.2M/yr')
    expect(of({min: 4000, currency: 'EUR', period: 'month'})).toBe('from EUR 4000/mo')
    expect(of({min: 3000, max: 10000})).toBe('3000-10k')
    expect(compactSalary(parseSalaryText('Pay per task')!)).toBe('Pay per task')
  })
})
