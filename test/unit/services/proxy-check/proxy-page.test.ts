import { describe, expect, it } from 'vitest';
import { headersOf, proxyPageOf, proxyPageProblem } from '../../../../main/services/proxy-check/proxy-page';

describe("the proxy's own page, told from the target's", () => {
  it.each([
    [403, { 'x-squid-error': 'ERR_ACCESS_DENIED 0', server: 'squid/5.7' }, { status: 403, daemon: 'Squid', code: 'ERR_ACCESS_DENIED' }],
    [503, { 'x-squid-error': 'ERR_CONNECT_FAIL 111' }, { status: 503, daemon: 'Squid', code: 'ERR_CONNECT_FAIL' }],
    [500, { server: 'tinyproxy/1.11.1' }, { status: 500, daemon: 'tinyproxy' }],
    [407, { 'proxy-authenticate': 'Basic realm="x"' }, { status: 407 }],
    // The target's own answers, passed on: a Server of its own, no Squid mark.
    [403, { server: 'nginx' }, undefined],
    [503, { server: 'squid/5.7' }, undefined],
    [502, {}, undefined],
  ] as const)('HTTP %i with %j: %j', (status, headers, expected) => {
    expect(proxyPageOf(status, headers)).toEqual(expected);
  });

  it("reads a CONNECT answer's head", () => {
    expect(headersOf('HTTP/1.1 403 Forbidden\r\nServer: squid/5.7\r\nX-Squid-Error: ERR_ACCESS_DENIED 0\r\n\r\n')).toEqual({
      server: 'squid/5.7',
      'x-squid-error': 'ERR_ACCESS_DENIED 0',
    });
  });

  it('names the proxy, never the target URL, whatever the status', () => {
    for (const status of [400, 403, 404, 500, 502, 503, 504]) {
      const problem = proxyPageProblem({ status, daemon: 'Squid', code: 'ERR_X' }, '10.0.0.5:3128', 'api.ipify.org');
      expect(problem?.message).toMatch(/^The proxy at 10\.0\.0\.5:3128 \(Squid\) /);
      expect(problem?.hint).not.toMatch(/check the target URL/i);
    }
    // A page that says nothing of its proxy keeps the generic words (classify.ts's statusProblem).
    expect(proxyPageProblem({ status: 503 }, '10.0.0.5:3128', 'api.ipify.org')).toBeUndefined();
  });
});
