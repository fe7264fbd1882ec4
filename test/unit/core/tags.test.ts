import { describe, expect, it } from 'vitest';
import { hasTag, splitTags } from '../../../main/core/provider/rules/tags';

describe('tags', () => {
  it.each([
    ['proxy_operator', ['proxy_operator']],
    ['a;proxy_operator', ['a', 'proxy_operator']],
    ['a,b c;;d', ['a', 'b', 'c', 'd']],
    ['', []],
    [undefined, []],
  ] as const)('splits %j', (tags, want) => {
    expect(splitTags(tags)).toEqual(want);
  });

  it('matches case-insensitively and only whole tags', () => {
    expect(hasTag('web;Proxy_Operator', 'proxy_operator')).toBe(true);
    expect(hasTag('proxy_operator2;x', 'proxy_operator')).toBe(false);
  });
});
