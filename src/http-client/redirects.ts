import {lookup} from 'node:dns/promises'
import {BlockList, isIP} from 'node:net'
import {HttpError} from './http-error.js'

export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/** Loopback, private, link-local and shared ranges: the machine itself and its local networks. */
const PRIVATE_RANGES = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE_RANGES.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  PRIVATE_RANGES.addSubnet(network, prefix, 'ipv6')
}

function isPrivateAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  // IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are matched against the IPv4 ranges by BlockList.
  return PRIVATE_RANGES.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/**
 * Whether a host names this machine or a private network: a literal address in PRIVATE_RANGES, `localhost`, or a
 * name that resolves to such an address. A name that does not resolve here (behind a proxy) counts as public;
 * the request to it fails on its own if it cannot be reached.
 */
async function isPrivateHost(hostname: string): Promise<boolean> {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (isIP(host) !== 0) return isPrivateAddress(host)
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  try {
    const addresses = await lookup(host, {all: true})
    return addresses.some((entry) => isPrivateAddress(entry.address))
  } catch {
    return false
  }
}

/**
 * The next URL of a redirect, or the reason it is not followed: only to http(s), and never from a host on the
 * internet to this machine or a private network, where a hostile server could make jobagent read what only this
 * machine can reach.
 */
export async function redirectTarget(from: string, location: string, url: string): Promise<string> {
  let target: URL
  try {
    target = new URL(location, from)
  } catch {
    throw new HttpError(`redirect to an invalid URL (${location.slice(0, 200)})`, {url})
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new HttpError(`redirect to a URL that is not http(s) (${target.protocol})`, {url})
  }
  const source = new URL(from)
  if (!(await isPrivateHost(source.hostname)) && (await isPrivateHost(target.hostname))) {
    throw new HttpError(`redirect from ${source.host} to a private address (${target.host}) refused`, {url})
  }
  return target.href
}
