import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { embeddedIPv4, refusedAddressReason } from '../../src/lib/outbound/address-guard.js';

// A pure table: nothing here opens a socket or asks a resolver.
const REFUSED: ReadonlyArray<readonly [address: string, reason: string]> = [
  ['127.0.0.1', 'a loopback address'],
  ['127.255.255.254', 'a loopback address'],
  ['::1', 'a loopback address'],
  ['[::1]', 'a loopback address'],
  ['0.0.0.0', 'an unspecified address'],
  ['0.1.2.3', 'an unspecified address'],
  ['::', 'an unspecified address'],
  ['10.0.0.1', 'a private network address'],
  ['100.64.0.1', 'a private network address'],
  ['100.127.255.255', 'a private network address'],
  ['172.16.0.1', 'a private network address'],
  ['172.31.255.255', 'a private network address'],
  ['192.168.1.1', 'a private network address'],
  ['fc00::1', 'a private network address'],
  ['fd00:ec2::254', 'a private network address'],
  ['fec0::1', 'a private network address'],
  ['64:ff9b:1::a00:1', 'a private network address'],
  ['169.254.169.254', 'a link-local address'],
  ['169.254.0.1', 'a link-local address'],
  ['fe80::1', 'a link-local address'],
  ['fe80::1%eth0', 'a link-local address'],
  ['febf::1', 'a link-local address'],
  ['224.0.0.1', 'a multicast address'],
  ['239.255.255.250', 'a multicast address'],
  ['ff02::1', 'a multicast address'],
  ['192.0.2.1', 'a documentation address'],
  ['198.51.100.7', 'a documentation address'],
  ['203.0.113.9', 'a documentation address'],
  ['2001:db8::1', 'a documentation address'],
  ['192.0.0.8', 'a reserved address'],
  ['192.88.99.1', 'a reserved address'],
  ['198.18.0.1', 'a reserved address'],
  ['198.19.255.255', 'a reserved address'],
  ['240.0.0.1', 'a reserved address'],
  ['255.255.255.255', 'a reserved address'],
  ['100::1', 'a reserved address'],
  // IPv6 forms that end at an IPv4 host are judged as that host.
  ['::ffff:127.0.0.1', 'a loopback address'],
  ['::ffff:7f00:1', 'a loopback address'],
  ['::ffff:169.254.169.254', 'a link-local address'],
  ['::ffff:a9fe:a9fe', 'a link-local address'],
  ['::ffff:0:10.0.0.1', 'a private network address'],
  ['::10.0.0.1', 'a private network address'],
  ['::127.0.0.1', 'a loopback address'],
  ['64:ff9b::127.0.0.1', 'a loopback address'],
  ['64:ff9b::a9fe:a9fe', 'a link-local address'],
  ['64:ff9b::c0a8:101', 'a private network address'],
  ['2002:7f00:1::1', 'a loopback address'],
  ['2002:c0a8:101::', 'a private network address'],
  // Not an IP address at all: a caller that forgot to resolve a name fails closed.
  ['localhost', 'not an IP address'],
  ['127.1', 'not an IP address'],
  ['', 'not an IP address'],
];

const ALLOWED = [
  '8.8.8.8',
  '1.1.1.1',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '169.253.255.255',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '2606:4700::1111',
  '2001:4860:4860::8888',
  '[2606:4700::1111]',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
  'fbff::1',
  'fe7f::1',
  '2a00::ffff:7f00:1',
];

describe('refusedAddressReason', () => {
  for (const [address, reason] of REFUSED)
    test(`refuses ${address || '(empty)'} as ${reason}`, () => {
      assert.equal(refusedAddressReason(address), reason);
    });

  test('allows public addresses, also in IPv6 forms that carry a public IPv4 address', () => {
    for (const address of ALLOWED) assert.equal(refusedAddressReason(address), null, address);
  });
});

describe('embeddedIPv4', () => {
  test('finds the IPv4 address inside mapped, translated, compatible, NAT64 and 6to4 forms', () => {
    assert.equal(embeddedIPv4('::ffff:1.2.3.4'), '1.2.3.4');
    assert.equal(embeddedIPv4('::ffff:0102:0304'), '1.2.3.4');
    assert.equal(embeddedIPv4('::ffff:0:1.2.3.4'), '1.2.3.4');
    assert.equal(embeddedIPv4('::1.2.3.4'), '1.2.3.4');
    assert.equal(embeddedIPv4('64:ff9b::1.2.3.4'), '1.2.3.4');
    assert.equal(embeddedIPv4('0:0:0:0:0:ffff:102:304'), '1.2.3.4');
    assert.equal(embeddedIPv4('2002:102:304:5::6'), '1.2.3.4');
    assert.equal(embeddedIPv4('2606:4700::1111'), null);
    assert.equal(embeddedIPv4('64:ff9b:0:0:1::1'), null);
  });
});
