import {describe, expect, it} from 'vitest'
import {maskCredentials, maskCredentialsIn, maskUrl} from '../../src/core/secrets.js'

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
