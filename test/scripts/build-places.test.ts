import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
// @ts-expect-error: a plain JS build script, without types
import {buildPlaces, MIN_POPULATION} from '../../scripts/build-places.js'

const root = join(import.meta.dirname, '..', '..')

describe('scripts/build-places.js', () => {
  it('writes exactly the committed data/places.json, so the script and the file never drift', () => {
    const built = (buildPlaces as () => string)()
    expect(built === readFileSync(join(root, 'data', 'places.json'), 'utf8')).toBe(true)
  }, 60_000)

  it('keeps every city above the threshold with its country, and regions as member countries', () => {
    const data = JSON.parse(readFileSync(join(root, 'data', 'places.json'), 'utf8'))
    const cities = data.cities as [string, string, number, number, string[], string[]][]
    expect(cities.length).toBeGreaterThan(20_000)
    expect(cities.every(([, country]) => /^[A-Z]{2}$/.test(country))).toBe(true)
    // Capitals are kept whatever their size; everything else is at or above the threshold.
    expect(cities.filter(([, , , population]) => population < MIN_POPULATION).length).toBeLessThan(300)
    const regions = new Map((data.regions as [string, string[], string[]][]).map(([key, , members]) => [key, members]))
    expect(regions.get('dach')).toEqual(['AT', 'CH', 'DE'])
    expect(regions.get('european union')).toHaveLength(27)
    expect(regions.get('latin america')).toEqual(expect.arrayContaining(['AR', 'BR', 'CL', 'CO', 'MX', 'PE']))
    expect(regions.get('apac')).toEqual(expect.arrayContaining(['AU', 'IN', 'JP', 'PH', 'SG', 'VN']))
    expect(regions.get('apac')).not.toContain('AE')
    expect(regions.get('emea')).toEqual(expect.arrayContaining(['AE', 'DE', 'NG', 'ZA']))
  })
})
