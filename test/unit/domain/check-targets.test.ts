/**
 * Issue 24, targets: what a user may type as a target list (words before
 * saving), and which targets a proxy gets from its tags and its own list.
 */
import { describe, expect, it } from 'vitest';
import { MAX_TARGETS, mergeTargets, parseTargets, targetUrlProblem } from '../../../shared/domain/check-targets';

describe('a target URL', () => {
  it('is http or https with a host', () => {
    expect(targetUrlProblem('https://example.com/')).toBeUndefined();
    expect(targetUrlProblem('http://10.0.0.9:8080/health')).toBeUndefined();
    expect(targetUrlProblem('ftp://example.com/')).toBe('Only http:// and https:// sites can be fetched through a proxy, not ftp: URLs.');
    expect(targetUrlProblem('example.com')).toMatch(/^This is not a URL: write it in full, with http:\/\/ or https:\/\//);
  });

  it('holds no user name or password (it is kept in the history)', () => {
    expect(targetUrlProblem('https://bob:secret@example.com/')).toMatch(/must not hold a user name or password/);
    expect(targetUrlProblem('https://bob@example.com/')).toMatch(/must not hold a user name or password/);
  });
});

describe('a target list', () => {
  it('drops blank lines and spaces, keeps a repeated URL once', () => {
    expect(parseTargets('  https://a.example/ \n\nhttps://b.example/\nhttps://a.example/\n')).toEqual({
      ok: true,
      urls: ['https://a.example/', 'https://b.example/'],
    });
    expect(parseTargets([])).toEqual({ ok: true, urls: [] });
  });

  it('names the line that is not a target, never repeating a password in it', () => {
    expect(parseTargets('https://a.example/\nhttps://bob:hunter2@b.example/')).toEqual({
      ok: false,
      problem:
        'Line 2 (https://…@b.example/): The URL must not hold a user name or password: it is sent through the proxy and kept in the check history. Use a URL that needs no login.',
    });
    expect(parseTargets('https://a.example/\nmailto:x@example.com')).toEqual({
      ok: false,
      problem: 'Line 2 (mailto:x@example.com): Only http:// and https:// sites can be fetched through a proxy, not mailto: URLs.',
    });
  });

  it(`holds at most ${MAX_TARGETS}`, () => {
    const urls = Array.from({ length: MAX_TARGETS + 2 }, (_, i) => `https://s${i}.example/`);
    expect(parseTargets(urls.slice(0, MAX_TARGETS))).toEqual({ ok: true, urls: urls.slice(0, MAX_TARGETS) });
    expect(parseTargets(urls)).toEqual({ ok: false, problem: `12 targets is too many: a list holds at most ${MAX_TARGETS}. Remove 2.` });
  });
});

describe("a proxy's targets", () => {
  const tags: Record<string, string[]> = {
    web: ['https://a.example/', 'https://b.example/'],
    ci: ['https://b.example/', 'https://c.example/'],
  };
  const of = (tag: string) => tags[tag];

  it("are its tags' targets, then its own, each URL once, naming every list it is on", () => {
    expect(mergeTargets(['web', 'ci', 'untargeted'], of, ['https://c.example/', 'https://d.example/'])).toEqual({
      targets: [
        { url: 'https://a.example/', from: [{ tag: 'web' }] },
        { url: 'https://b.example/', from: [{ tag: 'web' }, { tag: 'ci' }] },
        { url: 'https://c.example/', from: [{ tag: 'ci' }, { proxy: true }] },
        { url: 'https://d.example/', from: [{ proxy: true }] },
      ],
      left: [],
    });
  });

  it("are only its own without tags, and a tag's only for a proxy with that tag", () => {
    expect(mergeTargets([], of, ['https://d.example/']).targets.map((t) => t.url)).toEqual(['https://d.example/']);
    expect(mergeTargets(['ci'], of, []).targets.map((t) => t.url)).toEqual(['https://b.example/', 'https://c.example/']);
  });

  it(`stop at ${MAX_TARGETS}; the rest are said, not fetched`, () => {
    const many = Array.from({ length: 8 }, (_, i) => `https://t${i}.example/`);
    const own = Array.from({ length: 5 }, (_, i) => `https://o${i}.example/`);
    const merged = mergeTargets(['many'], () => many, own);
    expect(merged.targets).toHaveLength(MAX_TARGETS);
    expect(merged.left).toEqual(['https://o2.example/', 'https://o3.example/', 'https://o4.example/']);
  });
});
