/**
 * IPv4 and IPv6 addresses and prefixes as numbers, for the rules a static
 * network needs (issue 24): an address inside its own prefix and not the
 * prefix's network or broadcast address, a gateway in the same subnet. The
 * text is checked first with zod's own address formats, so this module only
 * turns an address zod accepted into a number. Pure: no Node, no DOM.
 */
import { z } from 'zod';

export type IpFamily = 4 | 6;

export interface IpAddress {
  family: IpFamily;
  value: bigint;
}

export interface IpPrefix extends IpAddress {
  /** The prefix length: 0..32 for IPv4, 0..128 for IPv6. */
  length: number;
}

const ipv4 = z.ipv4();
const ipv6 = z.ipv6();

const bits = (family: IpFamily) => (family === 4 ? 32 : 128);

function v4Value(text: string): bigint {
  return text.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

function v6Value(text: string): bigint {
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  // An embedded IPv4 tail (`::ffff:192.0.2.1`) is the last two groups.
  const v4 = last.includes('.') ? v4Value(last) : undefined;
  const body = v4 === undefined ? text : `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  const [head = '', rest] = body.split('::');
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => BigInt(parseInt(g, 16))));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const zeros = Array.from({ length: 8 - left.length - right.length }, () => 0n);
  return [...left, ...zeros, ...right].reduce((n, g) => (n << 16n) | g, 0n);
}

/** An address as a number, or undefined when it is neither an IPv4 nor an IPv6 address (no prefix, no zone). */
export function parseAddress(text: string): IpAddress | undefined {
  if (ipv4.safeParse(text).success) return { family: 4, value: v4Value(text) };
  if (ipv6.safeParse(text).success) return { family: 6, value: v6Value(text) };
  return undefined;
}

/** `address/length`, or undefined when either half is not one (a length outside 0..32 or 0..128 included). */
export function parsePrefix(text: string): IpPrefix | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const address = parseAddress(text.slice(0, slash));
  const lengthText = text.slice(slash + 1);
  if (!address || !/^\d{1,3}$/.test(lengthText)) return undefined;
  const length = Number(lengthText);
  return length > bits(address.family) ? undefined : { ...address, length };
}

function mask(family: IpFamily, length: number): bigint {
  const width = BigInt(bits(family));
  return ((1n << width) - 1n) ^ ((1n << (width - BigInt(length))) - 1n);
}

/** Whether `address` lies inside `prefix` (same family, same network bits). */
export function contains(prefix: IpPrefix, address: IpAddress): boolean {
  if (prefix.family !== address.family) return false;
  const m = mask(prefix.family, prefix.length);
  return (prefix.value & m) === (address.value & m);
}

/**
 * Why `prefix`'s own address cannot be a host's, or undefined when it can: an IPv4 network or broadcast address
 * (below /31, where RFC 3021 makes both ends hosts), or IPv6's all-zero subnet-router anycast address (RFC 4291
 * 2.6.1) below /127.
 */
export function notAHost(prefix: IpPrefix): string | undefined {
  const width = bits(prefix.family);
  const hostBits = (1n << BigInt(width - prefix.length)) - 1n;
  const host = prefix.value & hostBits;
  if (prefix.family === 4 && prefix.length < 31) {
    if (host === 0n) return 'is the network address of its prefix';
    if (host === hostBits) return 'is the broadcast address of its prefix';
  }
  if (prefix.family === 6 && prefix.length < 127 && host === 0n) return 'is the subnet-router address of its prefix';
  return undefined;
}
