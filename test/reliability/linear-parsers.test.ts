import {describe, expect, it} from 'vitest'
import {savedDate} from '../../src/core/applications/tracker-exports.js'
import {contactInputSchema} from '../../src/core/applications/validation.js'
import {boardsInPage} from '../../src/core/jobs/board-urls.js'
import {htmlToText} from '../../src/core/jobs/description.js'
import {cleanText, cleanUrl, normalisePostedDate} from '../../src/core/jobs/normalise.js'
import {parseSalaryText} from '../../src/core/jobs/salary.js'
import type {SourceConfig} from '../../src/core/jobs/source-config.js'
import {buildTestDigest} from '../../src/core/notifications/digest.js'
import {NotificationService} from '../../src/core/notifications/notification-service.js'
import {maskCredentials, maskCredentialsIn, maskUrl, maskUrlsIn, withoutPasswords} from '../../src/core/secrets.js'
import {applicationUrlKey, canonicalJobUrl} from '../../src/core/url-identity.js'
import {parseNotifierUrl} from '../../src/notifiers/channel-urls.js'
import {sqliteFile} from '../../src/shipments/app/shipments.js'
import {remoteRegion} from '../../src/sources/board-helpers.js'
import {parseHeading} from '../../src/sources/hackernews.js'
import {adapterSettings, eligibility, lowerCaseHost, tidyList} from '../../src/sources/shared.js'
import {memoryLogger} from '../helpers/memory-log.js'

/**
 * Every regular expression jobagent applies to text from outside (a board's answer, an import file, a request, an
 * error message a server wrote) over the input that makes it backtrack most, 1 MB of it. A pattern that tries again
 * from every character of a long run takes minutes at this size; a linear one, milliseconds.
 */
const MB = 1_000_000
const run = (unit: string, length = MB) => unit.repeat(Math.ceil(length / unit.length))

/** The milliseconds `read` takes on `input`, and what it gave. */
function timed<T>(read: (input: string) => T, input: string): {ms: number; result: T} {
  const started = performance.now()
  const result = read(input)
  return {ms: performance.now() - started, result}
}

const HOSTILE: [string, (input: string) => unknown, string][] = [
  // Board answers: job links, places and headings.
  ['cleanUrl: white space at the ends (URL_EDGE)', cleanUrl, `https://example.org/${run(' ')}x`],
  ['cleanUrl: white space inside (URL_EDGE)', cleanUrl, `x${run(' \u00a0')}x`],
  ['canonicalJobUrl: trailing slashes of the path', canonicalJobUrl, `https://example.org/${run('/')}x`],
  ['canonicalJobUrl: trailing slashes of a text that is no URL', canonicalJobUrl, `no url ${run('/')} x`],
  ['applicationUrlKey: the URL pattern', applicationUrlKey, `a://${run('+')}://\nx`],
  ['applicationUrlKey: trailing slashes of the path', applicationUrlKey, `https://example.org/${run('/')}x`],
  ['tidyList: separators at the ends', tidyList, `a${run(' ,')}a`],
  ['remoteRegion: a run of white space', remoteRegion, `Berlin${run(' ')}x`],
  ['remoteRegion: tabs before brackets', remoteRegion, `[${run('\t')}\t[]`],
  ['remoteRegion: white space after "remote"', remoteRegion, `remote${run(' ')}\n x`],
  ['remoteRegion: dashes', remoteRegion, `x${run(' -')}`],
  ['remoteRegion: tabs and dashes', remoteRegion, `x${run('\t-')}`],
  ['remoteRegion: a run of white space before the word', remoteRegion, `Berlin${run('\t ')}x remote`],
  ['parseHeading: tags without an end (<[^>]*>)', parseHeading, run('<')],
  ['parseHeading: a heading of tags', parseHeading, run('<b')],
  ['lowerCaseHost: a scheme without its slashes', lowerCaseHost, run('a+')],
  ['eligibility: time zone words', eligibility, run('UTCx')],
  ['cleanText: white space and control characters', cleanText, run(' \u0000\u00a0')],
  ['normalisePostedDate: RFC 2822 spacing', normalisePostedDate, `Fri, 10 Jul${run(' ')}x`],
  ['parseSalaryText: an amount of many digit groups (AMOUNT)', parseSalaryText, `$1${run(',000')}x`],
  ['boardsInPage: links in a careers page', boardsInPage, run('//a')],
  ['htmlToText: an entity without its end (ESCAPED_MARKUP)', htmlToText, `&amp;${run('a')}`],
  ['htmlToText: a closing tag without its end (ESCAPED_MARKUP)', htmlToText, `&lt;/p${run(' ')}x`],
  // Import files and requests.
  [
    'contactInputSchema: an email address of many dots',
    (email) => contactInputSchema.safeParse({name: 'Ann', email}),
    `a@a${run('.a')}@`,
  ],
  [
    'contactInputSchema: a reach of many dots',
    (reach) => contactInputSchema.safeParse({name: 'Ann', reach}),
    `a@a${run('.a')}@`,
  ],
  ['savedDate: spaces in a written-out date', savedDate, `Mar${run(' ')}x`],
  ['savedDate: spaces after a US date', savedDate, `3/14/2026${run(' ')}x`],
  // Error messages and URLs named in logs, answers and listings.
  ['maskCredentials: the URL pattern', maskCredentials, `a://${run(':')}#\n`],
  ['maskCredentials: query parameters', maskCredentials, `https://example.org/?${run('?')}&=`],
  ['maskUrl: the URL pattern', maskUrl, `a://${run(':')}#\n`],
  ['maskCredentialsIn: scheme-like words', maskCredentialsIn, `${run('a+')}_`],
  ['maskCredentialsIn: punctuation after a URL', maskCredentialsIn, `https://example.org/${run('!')}\u0000x`],
  ['maskUrlsIn: scheme-like words', maskUrlsIn, `${run('a+')}_`],
  ['withoutPasswords: user information', withoutPasswords, `${run('//:')}\t//:@`],
  // The configuration and the environment (board, channel and store URLs).
  ['parseNotifierUrl: slashes in an ntfy topic', (url) => parseNotifierUrl(url), `ntfy://ntfy.sh/a${run('/')}x`],
  [
    'adapterSettings: slashes at the end of a board URL',
    (url) => adapterSettings({type: 'rss', url} as SourceConfig, 'https://example.org'),
    `https://example.org/${run('/')}x`,
  ],
  ['sqliteFile: the query of a store URL', sqliteFile, `sqlite:///tmp/x.db?${run('?')}\n?`],
]

describe('regular expressions over 1 MB of hostile text', () => {
  it.each(HOSTILE)('%s', (_name, read, input) => {
    expect(input.length).toBeGreaterThanOrEqual(MB)
    let ms = Number.POSITIVE_INFINITY
    // The best of two: the first may pay for compiling the code, or for another process on the machine.
    for (let attempt = 0; attempt < 2; attempt++) {
      ms = Math.min(
        ms,
        timed(() => {
          try {
            read(input)
          } catch {
            // Refusing the input is an answer too; only the time counts here.
          }
        }, input).ms,
      )
    }
    expect(ms).toBeLessThan(1000)
  })
})

describe('a channel failing with 1 MB of error message', () => {
  it('is reported with its URLs masked in linear time', async () => {
    const message = `${run('a')}: refused by https://hooks.example.org/services/T0/B1`
    const failing = {
      name: 'slack://hooks.example.org/***',
      send: async () => {
        throw new Error(message)
      },
    }
    const service = new NotificationService([failing], memoryLogger().logger)
    const started = performance.now()
    const report = await service.deliver(buildTestDigest(), new AbortController().signal)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(report.channels[0]?.error).toMatch(/: refused by https:\/\/hooks\.example\.org\/services\/\*\*\*\/\*\*\*$/)
  })
})

describe('what the linear readers answer', () => {
  it('trims link edges, separators and slashes as before', () => {
    expect(cleanUrl(' \u0000https://example.org/a b \u0085')).toBe('https://example.org/a b')
    expect(tidyList(' , Cammeray, / ')).toBe('Cammeray')
    expect(canonicalJobUrl('https://Example.org/jobs///')).toBe('https://example.org/jobs')
    expect(canonicalJobUrl(' not a url// ')).toBe('not a url')
    expect(applicationUrlKey('HTTPS://Example.ORG/jobs/1/?q=a/')).toBe('https://example.org/jobs/1?q=a/')
  })

  it('reads the place of a remote location with its white space folded', () => {
    expect(remoteRegion('Remote  (US)')).toBe('US')
    expect(remoteRegion('Remote -\tCanada')).toBe('Canada')
    expect(remoteRegion('Germany   (Remote)')).toBe('Germany')
    expect(remoteRegion('US\nRemote')).toBe('US')
    expect(remoteRegion('Remote-friendly office')).toBeUndefined()
  })

  it('reads the heading of a post from its first line of text', () => {
    expect(parseHeading('<p></p><b>Acme</b> | Backend <i>Engineer</i> | Berlin<p>We are <hiring')).toEqual({
      company: 'Acme',
      title: 'Backend Engineer',
      location: 'Berlin',
    })
    expect(parseHeading('<<b>Acme | Engineer')?.company).toBe('Acme')
  })

  it('masks credentials in URLs whose fragment holds a line break', () => {
    expect(maskCredentials('https://ann:secret@example.org/a?token=abc&page=2#x\ny')).toBe(
      'https://ann:***@example.org/a?token=***&page=2#x\ny',
    )
    expect(maskCredentials('https://example.org/?x?token=abc&q=a?b=c')).toBe('https://example.org/?x?token=***&q=a?b=c')
    expect(maskUrl('https://hooks.example.org/services/T0/B1?key=v#a\nb')).toBe(
      'https://hooks.example.org/services/***/***?key=***',
    )
    expect(maskCredentialsIn('failed: https://example.org/?token=abc!!')).toBe(
      'failed: https://example.org/?token=***!!',
    )
    expect(withoutPasswords('connect postgres://ann:pw@db/x failed')).toBe('connect postgres://ann:***@db/x failed')
  })

  it('takes email addresses as before', () => {
    const email = (value: string) => contactInputSchema.safeParse({name: 'Ann', email: value}).success
    expect(email('ann@example.org')).toBe(true)
    expect(email('ann@a.b')).toBe(true)
    expect(email('ann@example')).toBe(false)
    expect(email('ann@.org')).toBe(false)
    expect(email('ann@example.')).toBe(false)
    expect(email('ann@@example.org')).toBe(false)
    expect(email('<ann>@example.org')).toBe(false)
  })
})
