import {chmodSync, existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {openInBrowser} from '../../src/ui/open-url.js'
import {tempDir} from '../helpers/cli.js'
import {waitFor} from './harness.js'

let dir: ReturnType<typeof tempDir> | undefined
afterEach(() => dir?.cleanup())

/** A fake opener on PATH that writes its arguments to a file. */
function fakeOpener(name: string): {bin: string; record: string} {
  dir = tempDir('jobagent-opener-')
  const record = join(dir.path, 'args.txt')
  writeFileSync(join(dir.path, name), `#!/bin/sh\nprintf '%s' "$*" > '${record}'\n`)
  chmodSync(join(dir.path, name), 0o755)
  return {bin: dir.path, record}
}

describe('opening a posting in the browser', () => {
  it('runs xdg-open on a Linux desktop, detached', async () => {
    const {bin, record} = fakeOpener('xdg-open')
    const outcome = await openInBrowser('https://example.org/jobs/1', {
      env: {PATH: bin, WAYLAND_DISPLAY: 'wayland-0'},
      platform: 'linux',
    })
    expect(outcome).toEqual({opened: true, command: 'xdg-open'})
    // The shell creates the file before printf fills it: wait for its content, not its existence.
    await waitFor(
      () => existsSync(record) && readFileSync(record, 'utf8') !== '',
      () => 'xdg-open to run',
    )
    expect(readFileSync(record, 'utf8')).toBe('https://example.org/jobs/1')
  })

  it('runs open on macOS', async () => {
    const {bin, record} = fakeOpener('open')
    expect(await openInBrowser('https://example.org/jobs/1', {env: {PATH: bin}, platform: 'darwin'})).toEqual({
      opened: true,
      command: 'open',
    })
    // The opener runs detached: the test waits for it before its directory is removed.
    await waitFor(
      () => existsSync(record) && readFileSync(record, 'utf8') !== '',
      () => 'open to run',
    )
    expect(readFileSync(record, 'utf8')).toBe('https://example.org/jobs/1')
  })

  it('does not start anything without a graphical display or without an opener', async () => {
    const {bin, record} = fakeOpener('xdg-open')
    expect(await openInBrowser('https://example.org/', {env: {PATH: bin}, platform: 'linux'})).toEqual({
      opened: false,
      reason: 'no graphical display',
    })
    expect(
      await openInBrowser('https://example.org/', {env: {PATH: '/nonexistent', DISPLAY: ':0'}, platform: 'linux'}),
    ).toEqual({
      opened: false,
      reason: 'xdg-open not found',
    })
    expect(existsSync(record)).toBe(false)
  })

  it('hands only web addresses to the opener', async () => {
    const {bin, record} = fakeOpener('xdg-open')
    for (const url of ['file:///etc/passwd', '--help', 'javascript:alert(1)']) {
      expect(await openInBrowser(url, {env: {PATH: bin, DISPLAY: ':0'}, platform: 'linux'})).toEqual({
        opened: false,
        reason: 'not a web address',
      })
    }
    expect(existsSync(record)).toBe(false)
  })
})
