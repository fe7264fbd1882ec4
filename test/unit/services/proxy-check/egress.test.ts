import { describe, expect, it } from 'vitest';
import { egressAddressOf } from '../../../../main/services/proxy-check/egress';

describe('egress address from the target answer', () => {
  it.each([
    ['203.0.113.7\n', '203.0.113.7'],
    ['2001:db8::1', '2001:db8::1'],
    ['{"ip":"203.0.113.7"}', '203.0.113.7'],
    ['{"origin":"203.0.113.7, 10.0.0.1"}', '203.0.113.7'],
    ['{"address":"198.51.100.2"}', '198.51.100.2'],
    ['<html>hello</html>', undefined],
    ['{"ip":"not an address"}', undefined],
    ['null', undefined],
  ])('%j gives %s', (body, expected) => {
    expect(egressAddressOf(body)).toBe(expected);
  });
});
