import { createRequire } from 'node:module';
import { BlockList, isIP } from 'node:net';
import { builtOnFirstUse } from '../util/built-on-first-use.js';
import type { ResolvedAddress } from './effects.js';

/** Where an address leads: this machine, a private network, a link-local one, or the internet. */
export type AddressClass = 'loopback' | 'private' | 'link-local' | 'public';

/**
 * The address ranges, made at the first address to classify: node:net's BlockList loads its own
 * built-in modules, and no start needs them before its first model request.
 */
const ranges = builtOnFirstUse(() => {
  const loopback = new BlockList();
  loopback.addSubnet('127.0.0.0', 8, 'ipv4');
  loopback.addAddress('::1', 'ipv6');
  loopback.addSubnet('0.0.0.0', 8, 'ipv4');
  loopback.addAddress('::', 'ipv6');

  const privateNets = new BlockList();
  for (const [net, bits] of [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['100.64.0.0', 10],
    ['198.18.0.0', 15],
  ] as const) {
    privateNets.addSubnet(net, bits, 'ipv4');
  }
  privateNets.addSubnet('fc00::', 7, 'ipv6');

  const linkLocal = new BlockList();
  linkLocal.addSubnet('169.254.0.0', 16, 'ipv4');
  linkLocal.addSubnet('fe80::', 10, 'ipv6');
  return { loopback, privateNets, linkLocal };
});

/** IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is classified as the IPv4 address it carries. */
function unmapped(address: string): { address: string; type: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, type: 'ipv4' };
  return { address, type: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export function classifyAddress(raw: string): AddressClass {
  const { address, type } = unmapped(raw);
  const { loopback, linkLocal, privateNets } = ranges();
  if (loopback.check(address, type)) return 'loopback';
  if (linkLocal.check(address, type)) return 'link-local';
  if (privateNets.check(address, type)) return 'private';
  return 'public';
}

/** The least public class among the addresses (a host with one private address is private). */
export function classifyAddresses(addresses: readonly ResolvedAddress[]): AddressClass {
  const order: AddressClass[] = ['loopback', 'link-local', 'private'];
  const classes = new Set(addresses.map((a) => classifyAddress(a.address)));
  return order.find((c) => classes.has(c)) ?? 'public';
}

export class HostResolutionError extends Error {
  override name = 'HostResolutionError';
  constructor(
    readonly host: string,
    cause: unknown,
  ) {
    super(
      `could not resolve the host \`${host}\`: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
}

/** Resolves a host once (a literal address resolves to itself); the connection must use these. */
export async function resolveHost(host: string): Promise<ResolvedAddress[]> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const literal = isIP(bare);
  if (literal) return [{ address: bare, family: literal === 6 ? 6 : 4 }];
  try {
    // node:dns/promises on the first name to resolve, not at load (every start loads the policy).
    // A require, not `import()`: the bundle runs in a node:vm script, which has no `import()`.
    const { lookup } = createRequire(import.meta.url)(
      'node:dns/promises',
    ) as typeof import('node:dns/promises');
    const found = await lookup(bare, { all: true, verbatim: true });
    return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
  } catch (error) {
    throw new HostResolutionError(bare, error);
  }
}
