import {describe, expect, it} from 'vitest'
import {
  companyKey,
  companyKeys,
  keyStart,
  LEGAL_FORMS,
  NAME_SUFFIXES,
  nameWords,
} from '../../../src/core/jobs/company-names.js'

describe('the name key of a company', () => {
  it.each([
    // Case, and the legal form or its stand-in at the end, in every spelling the lists use.
    ['Acme', 'acme'],
    ['ACME', 'acme'],
    ['Acme Inc', 'acme'],
    ['Acme, Inc.', 'acme'],
    ['Acme LLC', 'acme'],
    ['Acme Ltd.', 'acme'],
    ['Acme GmbH', 'acme'],
    ['Acme AG', 'acme'],
    ['Acme S.A.', 'acme'],
    ['Acme SAS', 'acme'],
    ['Acme B.V.', 'acme'],
    ['Acme Oy', 'acme'],
    ['Acme AB', 'acme'],
    ['Acme AS', 'acme'],
    ['Acme Corp', 'acme'],
    ['Acme Co.', 'acme'],
    ['Acme plc', 'acme'],
    ['Acme Pty Ltd', 'acme'],
    ['Acme Pte. Ltd.', 'acme'],
    ['Acme Corp, Inc.', 'acme'],
    ['Acme GmbH & Co. KG', 'acme'],
    // Accents (NFKD), punctuation and separators.
    ['Acmé', 'acme'],
    ['Zürich Labs AG', 'zurichlabs'],
    ['Société Générale', 'societegenerale'],
    ['acme-corp', 'acme'],
    ['acme_corp', 'acme'],
    ['Air BnB', 'airbnb'],
    ["McDonald's", 'mcdonalds'],
    ['Ben & Jerry', 'benandjerry'],
    ['1st formations', '1stformations'],
    // A suffix is left off the end only, and a name that is nothing else keeps its first word.
    ['AB InBev', 'abinbev'],
    ['Company', 'company'],
    ['Inc.', 'inc'],
    ['Co Op', 'coop'],
    // Letters of other scripts are letters too.
    ['株式会社 ABC', '株式会社abc'],
    ['!!!', ''],
    ['', ''],
  ])('%j is %j', (name, key) => {
    expect(companyKey(name)).toBe(key)
  })

  it('is looked up with and without its suffix, as a slug without separators spells it', () => {
    expect(companyKeys('Acme Corp')).toEqual(['acme', 'acmecorp'])
    expect(companyKeys('Acme Corp, Inc.')).toEqual(['acme', 'acmecorpinc'])
    expect(companyKeys('Airbnb')).toEqual(['airbnb'])
  })

  it('reads words in the same way for slugs: letters and digits, dots and apostrophes inside a word left out', () => {
    expect(nameWords('S.A. Acme-Corp, Inc.')).toEqual(['sa', 'acme', 'corp', 'inc'])
    expect(nameWords('Ærø Ølbryggeri')).toEqual(['ærø', 'ølbryggeri'])
  })

  it('reads at most 200 characters of a name, so a long one costs no more than that', () => {
    expect(companyKey(`${'a'.repeat(199)} b c d`)).toBe('a'.repeat(199))
    expect(companyKey('a '.repeat(1_000_000))).toBe('a'.repeat(100))
  })

  it('leaves off the legal forms of the table and the words that stand for one', () => {
    expect([...NAME_SUFFIXES].filter((word) => !LEGAL_FORMS.has(word))).toEqual([
      'corp',
      'corporation',
      'co',
      'company',
    ])
    for (const form of LEGAL_FORMS) expect(companyKey(`Acme ${form}`), form).toBe('acme')
  })

  it.each(['Acme Corp', '  "Acme"', '& Co', '.io Labs', '3M', '--x--', 'acme'])(
    'tells where the key of %j starts without making it',
    (name) => {
      expect(String.fromCharCode(keyStart(name))).toBe(companyKey(name)[0])
    },
  )

  it('says when only the key itself can tell, and when there is none', () => {
    expect(keyStart('Éclair')).toBe(-1)
    expect(keyStart('!!!')).toBe(0)
    expect(keyStart('xx Acme yy', 3, 7)).toBe('a'.charCodeAt(0))
  })
})
