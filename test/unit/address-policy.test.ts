import { describe, expect, it } from 'vitest';
import { checkAddress, isLocalName } from '../../electron/sandbox/address-policy';

describe('source_url address policy', () => {
  it('refuses every non-public form, IPv4 inside IPv6 included', () => {
    for (const a of [
      '127.0.0.1',
      '127.255.255.254',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '192.0.0.1',
      '192.0.2.1',
      '198.18.0.1',
      '224.0.0.1',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '[::1]',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::127.0.0.1',
      '::7f00:1',
      '::8.8.8.8',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '2001:db8::1',
      '2002:7f00:1::',
      '64:ff9b::7f00:1',
      '2001::1',
      '100::1',
      'not-an-ip',
    ]) {
      expect(checkAddress(a).ok, a).toBe(false);
    }
  });

  it('allows public unicast, and connects a mapped address over IPv4', () => {
    expect(checkAddress('8.8.8.8')).toEqual({ ok: true, address: '8.8.8.8', family: 4 });
    expect(checkAddress('::ffff:8.8.8.8')).toEqual({ ok: true, address: '8.8.8.8', family: 4 });
    expect(checkAddress('2606:4700::1111')).toMatchObject({ ok: true, family: 6 });
  });

  it('knows localhost names in every spelling', () => {
    for (const n of ['localhost', 'LOCALHOST', 'localhost.', 'a.b.localhost', 'x.localhost.'])
      expect(isLocalName(n), n).toBe(true);
    for (const n of ['localhost.example.com', 'mylocalhost', 'example.com'])
      expect(isLocalName(n), n).toBe(false);
  });
});
