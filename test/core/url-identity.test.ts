import {describe, expect, it} from 'vitest'
import {applicationUrlKey, isHttpUrl} from '../../src/core/url-identity.js'

describe('the identity of an application url', () => {
  it.each([
    ['https://example.org/jobs/1', 'https://example.org/jobs/1'],
    ['HTTPS://EXAMPLE.ORG/jobs/1', 'https://example.org/jobs/1'],
    ['https://example.org/jobs/1/', 'https://example.org/jobs/1'],
    ['https://example.org/jobs/1//', 'https://example.org/jobs/1'],
    ['https://example.org/', 'https://example.org'],
    ['https://example.org', 'https://example.org'],
    ['  https://example.org/jobs/1  ', 'https://example.org/jobs/1'],
    ['https://example.org/jobs/1/?ref=x', 'https://example.org/jobs/1?ref=x'],
    ['https://example.org/jobs/1/#apply', 'https://example.org/jobs/1#apply'],
    ['https://User@Example.org:8443/a', 'https://user@example.org:8443/a'],
  ])('treats %j as %j', (url, key) => {
    expect(applicationUrlKey(url)).toBe(key)
  })

  it('keeps the case of the path and the query', () => {
    expect(applicationUrlKey('https://example.org/Jobs/A?Ref=B')).toBe('https://example.org/Jobs/A?Ref=B')
    expect(applicationUrlKey('https://example.org/jobs/a')).not.toBe(applicationUrlKey('https://example.org/Jobs/a'))
  })

  it('keeps a slash that ends a query value', () => {
    expect(applicationUrlKey('https://example.org/a?next=/b/')).toBe('https://example.org/a?next=/b/')
  })

  it('reads percent-encoded unreserved characters as the characters (RFC 3986), and any other escape in one case', () => {
    expect(applicationUrlKey('https://example.org/%64up')).toBe(applicationUrlKey('https://example.org/dup'))
    expect(applicationUrlKey('https://example.org/%7Eann/a%2Db%2E%5Fc')).toBe('https://example.org/~ann/a-b._c')
    expect(applicationUrlKey('https://example.org/jobs?q=%61%62')).toBe('https://example.org/jobs?q=ab')
    // An escaped reserved or other character stays escaped: %2F is not a path separator, and %41 is a capital.
    expect(applicationUrlKey('https://example.org/a%2fb')).toBe('https://example.org/a%2Fb')
    expect(applicationUrlKey('https://example.org/a%2Fb')).not.toBe(applicationUrlKey('https://example.org/a/b'))
    expect(applicationUrlKey('https://example.org/%41')).not.toBe(applicationUrlKey('https://example.org/a'))
    expect(applicationUrlKey('https://example.org/caf%c3%a9')).toBe('https://example.org/caf%C3%A9')
  })

  it('reads a URL with many escapes in time linear in its length', () => {
    const started = performance.now()
    applicationUrlKey(`https://example.org/${'%6'.repeat(300_000)}%64`)
    expect(performance.now() - started).toBeLessThan(1000)
  })

  it('tells http and https apart', () => {
    expect(applicationUrlKey('http://example.org/a')).not.toBe(applicationUrlKey('https://example.org/a'))
  })
})

describe('recognising http urls', () => {
  it.each(['http://example.org', 'https://example.org/jobs/1?x=1', 'HTTPS://EXAMPLE.ORG'])('accepts %s', (url) => {
    expect(isHttpUrl(url)).toBe(true)
  })

  it.each(['ftp://example.org', 'example.org', 'mailto:a@example.org', 'https://', 'file:///etc/passwd', ''])(
    'refuses %j',
    (url) => {
      expect(isHttpUrl(url)).toBe(false)
    },
  )
})
