import {describe, expect, it} from 'vitest'
import {maskCredentials, maskCredentialsIn, maskUrl, SecretMask, secretsOfUrl} from '../../src/core/secrets.js'

describe('masking secrets in urls', () => {
  it.each([
    ['https://hooks.slack.com/services/T000/B000/XXXXSECRET', 'https://hooks.slack.com/services/***/***/***'],
    ['https://discord.com/api/webhooks/123456/tokenSECRET', 'https://discord.com/api/***/***/***'],
    ['mailto://user:passSECRET@smtp.example.org:587?to=a@x.org', 'mailto://user:***@smtp.example.org:587?to=***'],
    ['ntfys://tokenSECRET@ntfy.example.org/jobs', 'ntfys://***@ntfy.example.org/***'],
    ['postgres://app:pwSECRET@db.internal:5432/shipments', 'postgres://app:***@db.internal:5432/shipments'],
    ['json://hooks.example.org/in?key=SECRET&x=1', 'json://hooks.example.org/in?key=***&x=***'],
    ['https://example.org/path#tokenSECRET', 'https://example.org/path'],
    ['ntfy://my-jobs', 'ntfy://***'],
    ['ntfy://my-jobs/', 'ntfy://***/'],
    ['ntfy://ntfy.lan:8080/jobsSECRET', 'ntfy://ntfy.lan:8080/***'],
    ['https://ntfy.sh/my-jobs', 'https://ntfy.sh/***'],
    ['https://example.org/hooks', 'https://example.org/hooks'],
    ['ntfy://', 'ntfy://'],
    ['jsons://hook.eu1.make.com/abcd1234efgh5678ijkl', 'jsons://hook.eu1.make.com/***'],
    ['json://hooks.example.org/averyveryverylongtokenwithoutdigits', 'json://hooks.example.org/***'],
    ['log://', 'log://'],
  ])('masks %s as %s', (url, masked) => {
    expect(maskUrl(url)).toBe(masked)
    expect(maskUrl(url)).not.toContain('SECRET')
  })

  it('masks a value that is not a url, keeping at most a short prefix', () => {
    expect(maskUrl('abcdefghSECRET')).toBe('abcd***')
    expect(maskUrl('short')).toBe('***')
  })
})

describe('masking credentials in board urls', () => {
  it.each([
    ['https://bob:pwSECRET@jobs.example.org/api?page=2', 'https://bob:***@jobs.example.org/api?page=2'],
    ['https://tokenSECRET@git.example.org/feed.atom', 'https://***@git.example.org/feed.atom'],
    [
      'https://jobs.example.org/v1/boards/acme/jobs?token=SECRET&content=true&key=SECRET2',
      'https://jobs.example.org/v1/boards/acme/jobs?token=***&content=true&key=***',
    ],
    [
      'https://x.example/feed?api_key=SECRET&apiKey=SECRET&private_token=SECRET&secret=SECRET&signature=SECRET&X-Amz-Signature=SECRET',
      'https://x.example/feed?api_key=***&apiKey=***&private_token=***&secret=***&signature=***&X-Amz-Signature=***',
    ],
    ['https://x.example/search?keywords=node&tags=ts', 'https://x.example/search?keywords=node&tags=ts'],
    // Adzuna's application id is half of its credential, though no secret word names it.
    [
      'https://api.adzuna.com/v1/api/jobs/gb/search/1?app_id=SECRET&app_key=SECRET2&results_per_page=50&what=node',
      'https://api.adzuna.com/v1/api/jobs/gb/search/1?app_id=***&app_key=***&results_per_page=50&what=node',
    ],
  ])('masks %s as %s', (url, masked) => {
    expect(maskCredentials(url)).toBe(masked)
  })

  it('masks every url in a message and leaves the rest of it', () => {
    const text = 'HTTP 500 from GET https://a:SECRET@x.example/jobs?access_token=SECRET; retrying in 1 s'
    expect(maskCredentialsIn(text)).toBe(
      'HTTP 500 from GET https://a:***@x.example/jobs?access_token=***; retrying in 1 s',
    )
  })
})

describe('hiding configured secrets wherever they appear', () => {
  it('hides a secret as written, percent-encoded, percent-decoded and as JSON writes it', () => {
    const mask = new SecretMask(['p@ss"word/1', 'tok%2Fen42'])
    expect(mask.mask('said p@ss"word/1 and p%40ss%22word%2F1')).toBe('said *** and ***')
    expect(mask.mask(JSON.stringify({echo: 'p@ss"word/1'}))).toBe('{"echo":"***"}')
    expect(mask.mask('got tok/en42 and tok%2Fen42')).toBe('got *** and ***')
  })

  it('hides the longer of two secrets whole when one holds the other', () => {
    expect(new SecretMask(['abcd', 'abcdefgh']).mask('x abcdefgh y abcd')).toBe('x *** y ***')
  })

  it('looks for no value shorter than 4 characters in free text', () => {
    const mask = new SecretMask(['abc', ''])
    expect(mask.empty).toBe(true)
    expect(mask.mask('abc abc')).toBe('abc abc')
  })

  it('masks every string of a document, keeps its shape and returns what holds no secret as it is', () => {
    const mask = new SecretMask(['s3cr3t-value'])
    const clean = {name: 'remoteok', count: 2}
    const failed = {name: 'adzuna', error: 'denied s3cr3t-value'}
    const document = {sources: [clean, failed], total: 2, ok: false}
    const masked = mask.maskStrings(document)
    expect(masked).toEqual({sources: [clean, {name: 'adzuna', error: 'denied ***'}], total: 2, ok: false})
    expect(masked.sources[0]).toBe(clean)
    expect(failed.error).toBe('denied s3cr3t-value')
    expect(mask.maskStrings(clean)).toBe(clean)
  })

  // Linear by construction; what the test holds is a 20 MB text of near-misses, which a scanner that went back
  // over the text for each of them would not finish within the test's timeout.
  it('masks a 20 MB text of near-misses of twenty secrets, each whole secret and no near-miss', () => {
    const mask = new SecretMask(Array.from({length: 20}, (_, index) => `secret-${index}-abcdefgh`))
    const text = `${'secret-1-abcdefg '.repeat(20_000_000 / 17)}secret-3-abcdefgh`
    const masked = mask.mask(text)
    expect(masked.endsWith(' ***')).toBe(true)
    expect(masked.length).toBe(text.length - 'secret-3-abcdefgh'.length + 3)
    expect(masked.startsWith('secret-1-abcdefg secret-1-abcdefg ')).toBe(true)
  })
})

describe('the secrets a URL carries', () => {
  it.each([
    ['ntfys://tk_abcdef123456@ntfy.example.org/jobs', 'channel', ['tk_abcdef123456', btoa('tk_abcdef123456:')]],
    ['json://hooks.example.org/in/abc123def456?key=k3y-value&format=json', 'channel', ['abc123def456', 'k3y-value']],
    ['json://bob:pa55word@hooks.example.org/in', 'channel', ['pa55word', btoa('bob:pa55word')]],
    ['https://discord.com/api/webhooks/123456789012/tokenABC-def_123', 'channel', ['123456789012', 'tokenABC-def_123']],
    ['https://hc-ping.com/5f4c1b0e-97a4-4b7e-9d0c-2c3f8a61e2b7', 'channel', ['5f4c1b0e-97a4-4b7e-9d0c-2c3f8a61e2b7']],
    ['ntfy://my-job-alerts', 'channel', []],
    ['https://api.example.org/v1/jobs?app_id=id123&app_key=key456&what=node', 'board', ['id123', 'key456']],
    ['postgres://app:pw-9b1d@db.internal:5432/shipments', 'board', ['pw-9b1d', btoa('app:pw-9b1d')]],
    ['https://boards.example.org/v1/boards/acme123/jobs', 'board', []],
  ] as const)('%s (%s) carries %j', (url, kind, secrets) => {
    expect(secretsOfUrl(url, kind)).toEqual(secrets)
  })
})
