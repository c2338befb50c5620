import {lookup} from 'node:dns/promises'
import {BlockList, isIP} from 'node:net'
import {HttpError} from './http-error.js'

export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/**
 * Addresses that are no host on the internet: this machine, private and shared networks, link-local, benchmarking
 * (198.18/15), IETF protocol assignments (192.0.0/24), multicast (224/4), reserved (240/4, broadcast included),
 * IPv6 site-local (fec0::/10), unique local (fc00::/7), multicast (ff00::/8) and the local-use NAT64 prefix
 * (64:ff9b:1::/48, whose translator is the operator's own).
 */
const PRIVATE_RANGES = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE_RANGES.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['64:ff9b:1::', 48],
] as const) {
  PRIVATE_RANGES.addSubnet(network, prefix, 'ipv6')
}

/**
 * IPv6 forms that carry an IPv4 address, which is where a request to them ends up: IPv4-compatible (`::a.b.c.d`),
 * NAT64 (64:ff9b::/96) and 6to4 (2002::/16, the address in the second and third groups). IPv4-mapped addresses
 * (`::ffff:a.b.c.d`) BlockList matches against the IPv4 ranges itself.
 */
function embeddedIpv4(address: string): string | undefined {
  const groups = ipv6Groups(address)
  if (!groups) return undefined
  const quad = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0)
  if (zeros(0, 6)) return quad(groups[6]!, groups[7]!)
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return quad(groups[6]!, groups[7]!)
  if (groups[0] === 0x2002) return quad(groups[1]!, groups[2]!)
  return undefined
}

/** The eight 16-bit groups of an IPv6 address as isIP accepts it (`::`, a dotted IPv4 tail); undefined otherwise. */
function ipv6Groups(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined
  const [head = '', tail] = address.toLowerCase().split('%')[0]!.split('::')
  const parse = (part: string | undefined) =>
    (part ? part.split(':') : []).flatMap((group) => {
      if (!group.includes('.')) return [Number.parseInt(group, 16)]
      const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number)
      return [(a << 8) | b, (c << 8) | d]
    })
  const front = parse(head)
  const back = parse(tail)
  const groups = tail === undefined ? front : [...front, ...Array(8 - front.length - back.length).fill(0), ...back]
  return groups.length === 8 ? groups : undefined
}

function isPrivateAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  if (PRIVATE_RANGES.check(address, family === 4 ? 'ipv4' : 'ipv6')) return true
  const ipv4 = family === 6 ? embeddedIpv4(address) : undefined
  return ipv4 !== undefined && PRIVATE_RANGES.check(ipv4, 'ipv4')
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
