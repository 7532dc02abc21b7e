import ipaddr from 'ipaddr.js';

/**
 * Whether the service may fetch from this address: public unicast only. Loopback, private, link-local,
 * carrier-grade NAT, unspecified, broadcast, multicast, reserved and documentation ranges are refused, and
 * so is every IPv6 form that carries an IPv4 address (mapped, IPv4-compatible, 6to4, NAT64, Teredo) unless
 * the IPv4 inside is itself public. Returns the address to connect to (the IPv4 one for a mapped address),
 * or a reason for the refusal.
 */
export function checkAddress(
  raw: string,
): { ok: true; address: string; family: 4 | 6 } | { ok: false; why: string } {
  const text = raw.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(text)) return { ok: false, why: `${raw} is not an IP address` };
  const parsed = ipaddr.parse(text);
  // ipaddr.js reads `::a.b.c.d` (IPv4-compatible) as if it were `::ffff:a.b.c.d`: tell them apart by the text.
  if (text.includes(':') && text.includes('.') && !/(^|:)ffff:[\d.]+$/i.test(text)) {
    return { ok: false, why: `${raw} is an IPv4-compatible address` };
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return checkAddress(v6.toIPv4Address().toString());
    // ::a.b.c.d (IPv4-compatible, deprecated) and everything else inside ::/96 is never a public host.
    if (v6.parts.slice(0, 6).every((p) => p === 0))
      return { ok: false, why: `${raw} is an IPv4-compatible address` };
  }
  const range = parsed.range();
  if (range !== 'unicast') return { ok: false, why: `${raw} is a ${range} address, not a public one` };
  return { ok: true, address: parsed.toNormalizedString(), family: parsed.kind() === 'ipv6' ? 6 : 4 };
}

/** `localhost`, `x.localhost` and their trailing-dot forms always mean this machine (RFC 6761). */
export function isLocalName(hostname: string): boolean {
  return /(^|\.)localhost\.?$/i.test(hostname);
}
