/**
 * The net0 rewrite of spec entry 7: the value's comma-separated options keep
 * their order, model and MAC untouched; `bridge=` and `tag=` are replaced in
 * place or appended.
 */
export function rewriteNet0(net0: string, bridge: string | undefined, vlanTag: number | undefined): string {
  const wanted = new Map<string, string>();
  if (bridge) wanted.set('bridge', bridge);
  if (vlanTag !== undefined && vlanTag !== 0) wanted.set('tag', String(vlanTag));
  const options = net0.split(',').map((option) => {
    const key = option.split('=', 1)[0] ?? '';
    const value = wanted.get(key);
    if (value === undefined) return option;
    wanted.delete(key);
    return `${key}=${value}`;
  });
  for (const key of ['bridge', 'tag']) {
    const value = wanted.get(key);
    if (value !== undefined) options.push(`${key}=${value}`);
  }
  return options.join(',');
}
