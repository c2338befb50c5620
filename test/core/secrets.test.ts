import {describe, expect, it} from 'vitest'
import {maskToken, maskUrl} from '../../src/core/secrets.js'

describe('masking secrets in urls', () => {
  it.each([
    ['https://hooks.slack.com/services/T000/B000/XXXXSECRET', 'https://hooks.slack.com/services/***/***/***'],
    ['https://discord.com/api/webhooks/123456/tokenSECRET', 'https://discord.com/api/***/***/***'],
    ['mailto://user:passSECRET@smtp.example.org:587?to=a@x.org', 'mailto://user:***@smtp.example.org:587?to=***'],
    ['ntfys://tokenSECRET@ntfy.example.org/jobs', 'ntfys://***@ntfy.example.org/jobs'],
    ['postgres://app:pwSECRET@db.internal:5432/shipments', 'postgres://app:***@db.internal:5432/shipments'],
    ['json://hooks.example.org/in?key=SECRET&x=1', 'json://hooks.example.org/in?key=***&x=***'],
    ['https://example.org/path#tokenSECRET', 'https://example.org/path'],
    ['ntfy://my-jobs', 'ntfy://my-jobs'],
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

  it('masks a token whatever its length, and leaves an empty one empty', () => {
    expect(maskToken('s3cr3t-token')).toBe('***')
    expect(maskToken('')).toBe('')
  })
})
