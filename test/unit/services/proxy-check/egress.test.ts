import { describe, expect, it } from 'vitest';
import { egressAddressOf, forwardedBack } from '../../../../main/services/proxy-check/egress';

describe('egress address from the target answer', () => {
  it.each([
    ['203.0.113.7\n', '203.0.113.7'],
    ['2001:db8::1', '2001:db8::1'],
    ['{"ip":"203.0.113.7"}', '203.0.113.7'],
    ['{"origin":"203.0.113.7, 10.0.0.1"}', '10.0.0.1'],
    ['{"address":"198.51.100.2"}', '198.51.100.2'],
    ['<html>hello</html>', undefined],
    ['{"ip":"not an address"}', undefined],
    ['null', undefined],
  ])('%j gives %s', (body, expected) => {
    expect(egressAddressOf(body)).toBe(expected);
  });
});

describe('an exit that is the client the proxy forwarded for', () => {
  it.each([
    ['192.168.0.10', { local: '192.168.0.10', proxy: '192.168.0.150' }, true],
    ['192.168.0.10', { local: '::ffff:192.168.0.10', proxy: '::ffff:192.168.0.150' }, true],
    ['2001:DB8::10', { local: '2001:db8::10', proxy: '2001:db8::150' }, true],
    // A proxy on this computer really exits from this computer's address.
    ['127.0.0.1', { local: '127.0.0.1', proxy: '127.0.0.1' }, false],
    ['203.0.113.7', { local: '192.168.0.10', proxy: '192.168.0.150' }, false],
    ['192.168.0.10', {}, false],
  ])('%s through %j: %s', (exit, connection, expected) => {
    expect(forwardedBack(exit, connection)).toBe(expected);
  });
});
