import {describe, expect, it} from 'vitest'
import type {JobResponse} from '../../../src/core/jobs/job.js'
import {statementAround} from '../../../src/core/matching/places.js'
import type {Profile} from '../../../src/core/matching/profile.js'
import {scoreJobs} from '../../../src/core/matching/score.js'
import {knowledge} from '../../helpers/knowledge.js'
import {scoringJob, scoringProfile} from '../../helpers/matching.js'

const {placesIn, knownPlace, overlaps, isCity, statementPlaces} = knowledge.places

describe('the place index', () => {
  it('resolves cities of any country, by their names in other languages and their old names', () => {
    expect(placesIn('Mountain View')).toEqual(['mountain view'])
    for (const city of ['Mountain View', 'Sunnyvale', 'Menlo Park', 'Austin']) {
      expect(overlaps('united states', placesIn(city)[0]!)).toBe(true)
      expect(overlaps('asia', placesIn(city)[0]!)).toBe(false)
    }
    expect(placesIn('München')).toEqual(placesIn('Munich'))
    expect(placesIn('Köln')).toEqual(placesIn('Cologne'))
    expect(placesIn('Sao Paulo')).toEqual(placesIn('São Paulo'))
    expect(placesIn('Bangalore')).toEqual(placesIn('Bengaluru'))
    expect(placesIn('Bombay')).toEqual(placesIn('Mumbai'))
    expect(placesIn('Saigon')).toEqual(placesIn('Ho Chi Minh City'))
    expect(overlaps('germany', placesIn('München')[0]!)).toBe(true)
    expect(overlaps('brazil', placesIn('São Paulo')[0]!)).toBe(true)
    expect(overlaps('india', placesIn('Bangalore')[0]!)).toBe(true)
    expect(overlaps('vietnam', placesIn('Saigon')[0]!)).toBe(true)
    for (const city of ['Quezon City', 'Makati', 'Manila'])
      expect(overlaps('philippines', placesIn(city)[0]!)).toBe(true)
    expect(placesIn('Deutschland')).toEqual(['germany'])
    expect(placesIn('Österreich, Schweiz, España, Brasil')).toEqual(['austria', 'switzerland', 'spain', 'brazil'])
  })

  it('reads the abbreviations boards write for countries', () => {
    expect(placesIn('Remote - US/Canada')).toEqual(['united states', 'canada'])
    for (const name of ['USA', 'U.S.', 'U.S.A.', 'United States of America', 'America'])
      expect(placesIn(name)).toEqual(['united states'])
    for (const name of ['UK', 'U.K.', 'Great Britain', 'Britain']) expect(placesIn(name)).toEqual(['united kingdom'])
    expect(placesIn('UAE')).toEqual(['united arab emirates'])
    expect(placesIn('KSA')).toEqual(['saudi arabia'])
    expect(placesIn('Holland')).toEqual(['netherlands'])
    expect(placesIn('USA - Remote; CAN - Remote')).toEqual(['united states', 'canada'])
    // As a word, it is none: "so you can collaborate" in a statement says nothing of Canada.
    expect(placesIn('you need overlap with Pacific Time so you can collaborate', {inTitle: true})).toEqual([])
    expect(placesIn('Korea')).toEqual(['south korea'])
    expect(placesIn('NYC')).toEqual(['new york city'])
    expect(placesIn('Metro Manila')).toEqual(['manila'])
  })

  it('reads states and provinces, and a city by the state or country beside it', () => {
    expect(placesIn('Austin, Texas')).toEqual(['austin', 'texas'])
    expect(placesIn('San Jose, CA')).toEqual(['san jose', 'california'])
    expect(overlaps('costa rica', placesIn('San Jose, Costa Rica')[0]!)).toBe(true)
    expect(overlaps('united kingdom', placesIn('Cambridge, UK')[0]!)).toBe(true)
    expect(overlaps('massachusetts', placesIn('Cambridge, MA')[0]!)).toBe(true)
    expect(overlaps('canada', placesIn('Victoria, BC')[0]!)).toBe(true)
    expect(placesIn('Toronto, ON')).toEqual(['toronto', 'ontario'])
    expect(placesIn('Sydney, NSW')).toEqual(['sydney', 'new south wales'])
    expect(overlaps('germany', placesIn('Munich, Bavaria')[0]!)).toBe(true)
    // Without a neighbour, the larger place of the name.
    expect(overlaps('venezuela', placesIn('Valencia')[0]!)).toBe(true)
    expect(overlaps('spain', placesIn('Valencia, Spain')[0]!)).toBe(true)
    expect(overlaps('argentina', placesIn('Córdoba')[0]!)).toBe(true)
    expect(overlaps('spain', placesIn('Córdoba, España')[0]!)).toBe(true)
    expect(overlaps('philippines', placesIn('Manila')[0]!)).toBe(true)
    expect(overlaps('united states', placesIn('San Jose')[0]!)).toBe(true)
    // A country in a list of countries stays the country; a place after a comma may make it a town of its name.
    expect(placesIn('Ecuador; Mexico; Paraguay; Peru; Philippines')).toEqual([
      'ecuador',
      'mexico',
      'paraguay',
      'peru',
      'philippines',
    ])
    expect(placesIn('Lebanon, PA, USA')[0]).toBe('lebanon, pennsylvania, united states')
    expect(placesIn('Georgia, USA')[0]).toBe('georgia, united states')
    // A code that is also a country's name is the state the places around it say: DE is Delaware by a US city.
    expect(placesIn('Dover, DE, USA')).toEqual(['dover, united states', 'delaware', 'united states'])
    expect(placesIn('Wilmington, DE')).not.toContain('germany')
    expect(placesIn('Berlin, DE')).toEqual(['berlin', 'germany'])
    // A capital code alone is no qualifier: in a title, IT and HR are what the job is.
    expect(placesIn('IT Support, HR')).toEqual([])
  })

  it('reads regions as their member countries', () => {
    expect(overlaps('europe', 'germany')).toBe(true)
    expect(overlaps('emea', 'nigeria')).toBe(true)
    expect(overlaps('latin america', 'colombia')).toBe(true)
    expect(overlaps('apac', 'philippines')).toBe(true)
    expect(overlaps('south east asia', 'vietnam')).toBe(true)
    expect(overlaps('dach', 'switzerland')).toBe(true)
    expect(overlaps('dach', 'france')).toBe(false)
    expect(overlaps('nordics', 'finland')).toBe(true)
    expect(overlaps('benelux', 'luxembourg')).toBe(true)
    expect(overlaps('middle east', 'united arab emirates')).toBe(true)
    expect(overlaps('sub saharan africa', 'kenya')).toBe(true)
    expect(overlaps('sub saharan africa', 'egypt')).toBe(false)
    expect(overlaps('anz', 'new zealand')).toBe(true)
    expect(overlaps('cee', 'poland')).toBe(true)
    expect(overlaps('north america', 'mexico')).toBe(true)
    expect(overlaps('americas', placesIn('Sunnyvale')[0]!)).toBe(true)
    // Two regions that share countries overlap; two that share none do not.
    expect(overlaps('emea', 'european union')).toBe(true)
    expect(overlaps('europe', 'latin america')).toBe(false)
    expect(placesIn('Remote (EMEA), LATAM, APAC, DACH, Nordics')).toEqual([
      'emea',
      'latin america',
      'apac',
      'dach',
      'nordics',
    ])
    expect(placesIn('Remote - EU')).toEqual(['european union'])
    expect(placesIn('Anywhere in the World')).toEqual(['everywhere'])
  })

  it('does not read a city named like a word of a title as a place there, and elsewhere only with a capital', () => {
    for (const title of ['Mobile Developer', 'Lead Engineer', 'Sales Support', 'Enterprise Account Executive'])
      expect(placesIn(title, {inTitle: true})).toEqual([])
    for (const title of ['Reading Specialist', 'Nice Product Designer', 'Bath Engineer', 'Victoria Secret Buyer'])
      expect(placesIn(title, {inTitle: true})).toEqual([])
    expect(placesIn('Ingeniero de Software', {inTitle: true})).toEqual([])
    // The override layer of words (scripts/build-places.js, WORDS_TOO): codes and names that are words too.
    expect(placesIn('Remote, DE')).toEqual(['germany'])
    expect(placesIn('Ciudad de México')).not.toContain('germany')
    expect(placesIn('Remote - NA, NL')).toEqual(['north america', 'netherlands'])
    expect(placesIn('Ingeniero de Software na empresa', {inTitle: true})).toEqual([])
    expect(placesIn('AMER')).toEqual(['americas'])
    expect(placesIn('Asistente para proyecto como freelance', {inTitle: true})).toEqual([])
    expect(overlaps('brazil', placesIn('Para')[0]!)).toBe(true)
    // Names of small places that are words of other languages or trades are not read in a title or a statement.
    expect(placesIn('Greenfield OSS platform, auch remote', {inTitle: true})).toEqual([])
    expect(placesIn('Senior Engineer (Europe)', {inTitle: true})).toEqual(['europe'])
    expect(placesIn('Software Engineer, Berlin', {inTitle: true})).toEqual(['berlin'])
    expect(placesIn('Somewhere nice')).toEqual([])
    expect(overlaps('united kingdom', placesIn('Reading, UK')[0]!)).toBe(true)
    expect(overlaps('france', placesIn('Nice, France')[0]!)).toBe(true)
    expect(overlaps('alabama', placesIn('Mobile, AL')[0]!)).toBe(true)
    // Victoria is a forename and Australia's state; with a capital, and alone, it is the state.
    expect(placesIn('Victoria')).toEqual(['victoria'])
    expect(overlaps('australia', 'victoria')).toBe(true)
  })

  it('reads a profile’s places with the same data', () => {
    expect(knownPlace('Netherlands')).toBe('netherlands')
    expect(knownPlace('usa')).toBe('united states')
    expect(knownPlace('deutschland')).toBe('germany')
    expect(knownPlace('bangalore')).toBe(knownPlace('Bengaluru'))
    expect(knownPlace('Manila, Philippines')).toBe('manila')
    expect(knownPlace('reading')).toBe('reading')
    expect(knownPlace('Atlantis')).toBe('atlantis')
    expect(isCity('manila')).toBe(true)
    expect(isCity('california')).toBe(true)
    expect(isCity('philippines')).toBe(false)
    expect(isCity('apac')).toBe(false)
  })

  it('reads who may apply from a statement line, without words that are also cities', () => {
    expect(statementPlaces('you must be based in the uk or be authorized to work in the us')).toEqual([
      'united kingdom',
      'united states',
    ])
    expect(statementPlaces('candidates must be able to lead and support mobile teams')).toEqual([])
    expect(statementPlaces('our office is in berlin')).toEqual([])
  })

  it('reads a requirement put as "you live in" and a remote "within" a place as statements, and not a line on pay', () => {
    expect(statementPlaces('• you live in the emea region (utc 0 to utc +4 time zones).')).toEqual(['emea'])
    expect(statementPlaces('mostly remote (within germany), with monthly days at the office')).toEqual(['germany'])
    expect(statementPlaces('the base salary range is for residents of the united states only.')).toEqual([])
    expect(statementPlaces('we reply within two days')).toEqual([])
  })

  it('reads who may apply from where an employer hires and whom a role is open to, not from an open search', () => {
    expect(statementPlaces('this role is open to candidates in the us only')).toEqual(['united states'])
    expect(statementPlaces('this is a remote position open to residents of the philippines')).toEqual(['philippines'])
    expect(statementPlaces('we can only hire in the following countries: us, canada')).toEqual([
      'united states',
      'canada',
    ])
    expect(statementPlaces('we are hiring in the philippines only')).toEqual(['philippines'])
    // A team hiring, an open mind, and places given as examples of "wherever you are" limit no one.
    expect(statementPlaces('we are hiring in our data team in berlin')).toEqual([])
    expect(statementPlaces('we are open to feedback from berlin')).toEqual([])
    expect(statementPlaces('we would happily hire in europe, singapore, chicago, or wherever you are')).toEqual([])
    expect(statementPlaces('where do we hire from? almost everywhere, the uk included')).toEqual([])
  })

  it('reads the sentence of a statement word in a paragraph, bounded on either side, and where it ends', () => {
    const paragraph = `${'we build tools for teams. '.repeat(20)}you must be based in canada. ${'we ship. '.repeat(40)}`
    const at = paragraph.indexOf('must')
    const {statement, end} = statementAround(paragraph, at)
    expect(statement).toBe('you must be based in canada.')
    expect(paragraph.slice(end)).toMatch(/^ we ship\./)
    expect(statementPlaces(statement)).toEqual(['canada'])
    // No full stop near it: at most the bounds' characters around the word.
    const runOn = `${'x'.repeat(1000)} remote within germany ${'y'.repeat(1000)}`
    expect(statementAround(runOn, runOn.indexOf('within')).statement.length).toBeLessThanOrEqual(300)
    // A short line is read whole.
    expect(statementAround('line one\nonly us residents\nline three', 10)).toEqual({
      statement: 'only us residents',
      end: 26,
    })
  })
})

const job = (fields: Partial<JobResponse>): JobResponse =>
  scoringJob({title: 'Security Engineer', source: 'greenhouse', ...fields})
const person = (fields: Partial<Profile>): Profile => scoringProfile({roles: ['security engineer'], ...fields})
const reasons = (posting: Partial<JobResponse>, profile: Profile) =>
  scoreJobs([job(posting)], profile, {knowledge})[0]!.reasons

describe('places in scoring', () => {
  const manila = person({home: 'Philippines', locations: ['remote', 'asia']})

  it('gates a remote job whose description asks applicants to live elsewhere, in a list or run into a paragraph', () => {
    const listed =
      'Who You Are\n• You live in the EMEA Region (UTC 0 to UTC +4 time zones).\n• 4+ years of incident response.'
    const runOn = `${'We protect wallets. '.repeat(20)}Mostly remote (within Germany), with monthly days in Berlin`
    for (const description of [listed, runOn]) {
      const said = reasons({location: 'Remote', remote: true, description}, manila)
      expect(said.some((reason) => /^gate: remote for .+ only, not open to philippines \(x0\.2\)$/.test(reason))).toBe(
        true,
      )
    }
    const open = 'Who You Are\n• You have 4+ years of incident response.'
    expect(reasons({location: 'Remote', remote: true, description: open}, manila).join('\n')).not.toContain('gate:')
  })

  it('gates an on-site job in a Californian city for a person in Asia', () => {
    for (const location of ['Mountain View', 'Sunnyvale, CA', 'Menlo Park'])
      expect(reasons({location, remote: false}, manila)).toContain(
        `gate: on site in ${location}, not a place you accept (x0.2)`,
      )
    expect(reasons({location: 'Makati City', remote: false}, manila).join('\n')).not.toContain('gate:')
    expect(reasons({location: 'Remote - APAC', remote: true}, manila).join('\n')).not.toContain('gate:')
  })

  it('does not call a city the profile did not name a place it named', () => {
    const london = person({home: 'United Kingdom', locations: ['london']})
    expect(reasons({location: 'Manchester', remote: false}, london)).toContain(
      'gate: on site in Manchester, not a place you accept (x0.2)',
    )
    expect(reasons({location: 'London, UK', remote: false}, london)).toContain('location: London, UK fits')
  })

  it('reads the places of a profile and a job written in other languages alike', () => {
    const munich = person({home: 'Deutschland', locations: ['münchen']})
    expect(reasons({location: 'Munich, Germany', remote: false}, munich)).toContain('location: Munich, Germany fits')
    expect(reasons({location: 'Remote', regions: ['Germany'], remote: true}, munich).join('\n')).not.toContain('gate:')
    const bangalore = person({home: 'India', locations: ['bangalore']})
    expect(reasons({location: 'Bengaluru, Karnataka', remote: false}, bangalore)).toContain(
      'location: Bengaluru, Karnataka fits',
    )
    expect(reasons({location: 'São Paulo', remote: false}, person({locations: ['sao paulo']}))).toContain(
      'location: São Paulo fits',
    )
  })

  it('gates a remote job for one country from its statement line, read with the same data', () => {
    const description = 'About the role.\nYou must be authorized to work in the US.\nBenefits.'
    expect(reasons({location: 'Remote', remote: true, description}, manila)).toContain(
      'gate: remote for united states only, not open to philippines (x0.2)',
    )
  })
})
