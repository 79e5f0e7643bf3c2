import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Address ranges an outbound request (a calendar subscription, a push) must never reach unless private hosts are
 * allowed: a URL someone types would otherwise let them read the server's own loopback services, the private
 * network behind it and the cloud metadata endpoints (169.254.169.254, fd00:ec2::254). Each reason is a few words
 * a person can read in an error message.
 */
const REFUSED_RANGES: ReadonlyArray<readonly [reason: string, ranges: readonly string[]]> = [
  ['a loopback address', ['127.0.0.0/8', '::1/128']],
  // 0.0.0.0 reaches the local host on Linux: as dangerous as loopback.
  ['an unspecified address', ['0.0.0.0/8', '::/128']],
  [
    'a private network address',
    // 100.64/10 is carrier-grade NAT; fec0::/10 the deprecated site-local; 64:ff9b:1::/48 local-use NAT64.
    [
      '10.0.0.0/8',
      '100.64.0.0/10',
      '172.16.0.0/12',
      '192.168.0.0/16',
      'fc00::/7',
      'fec0::/10',
      '64:ff9b:1::/48',
    ],
  ],
  ['a link-local address', ['169.254.0.0/16', 'fe80::/10']],
  ['a multicast address', ['224.0.0.0/4', 'ff00::/8']],
  ['a documentation address', ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32']],
  // IETF protocol assignments, the old 6to4 relay, benchmarking, 240/4 with broadcast, the IPv6 discard prefix.
  ['a reserved address', ['192.0.0.0/24', '192.88.99.0/24', '198.18.0.0/15', '240.0.0.0/4', '100::/64']],
];

const REFUSED_LISTS = REFUSED_RANGES.map(([reason, ranges]) => {
  const list = new BlockList();
  for (const range of ranges) {
    const [network, prefix] = range.split('/');
    list.addSubnet(network, Number(prefix), network.includes(':') ? 'ipv6' : 'ipv4');
  }
  return { reason, list };
});

function reasonFor(address: string, family: 'ipv4' | 'ipv6'): string | null {
  return REFUSED_LISTS.find(({ list }) => list.check(address, family))?.reason ?? null;
}

/** The eight 16-bit groups of an address that has passed isIPv6, a dotted IPv4 tail included. */
function ipv6Groups(address: string): number[] {
  const hex = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_match, a, b, c, d) =>
    [Number(a) * 256 + Number(b), Number(c) * 256 + Number(d)].map((group) => group.toString(16)).join(':'),
  );
  const [head, tail] = hex.split('::');
  const groupsOf = (part: string | undefined) =>
    part ? part.split(':').map((group) => Number.parseInt(group, 16)) : [];
  const front = groupsOf(head);
  const back = groupsOf(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * The IPv4 address an IPv6 address carries to an IPv4 host: IPv4-mapped (::ffff:a.b.c.d), IPv4-translated
 * (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::). A request
 * to any of them can end at that IPv4 host, so it is judged as that host.
 */
export function embeddedIPv4(address: string): string | null {
  const groups = ipv6Groups(address);
  const zeroUpTo = (end: number) => groups.slice(0, end).every((group) => group === 0);
  const ipv4 = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');
  const [g0, g1, g2, , g4, g5, g6, g7] = groups;
  if (zeroUpTo(5) && g5 === 0xffff) return ipv4(g6, g7);
  if (zeroUpTo(4) && g4 === 0xffff && g5 === 0) return ipv4(g6, g7);
  if (zeroUpTo(6)) return ipv4(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && groups.slice(2, 6).every((group) => group === 0)) return ipv4(g6, g7);
  if (g0 === 0x2002) return ipv4(g1, g2);
  return null;
}

/**
 * Why an outbound request must not go to this IP address ('a loopback address', 'a private network address', ...),
 * or null for a public address. Accepts [brackets] and a %zone; anything that is not an IP address is refused too,
 * so a caller that forgot to resolve a host name fails closed.
 */
export function refusedAddressReason(address: string): string | null {
  const plain = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (isIPv4(plain)) return reasonFor(plain, 'ipv4');
  if (!isIPv6(plain)) return 'not an IP address';
  // :: and ::1 are also IPv4-compatible forms, so the IPv6 ranges are checked first.
  const embedded = embeddedIPv4(plain);
  return reasonFor(plain, 'ipv6') ?? (embedded === null ? null : reasonFor(embedded, 'ipv4'));
}
