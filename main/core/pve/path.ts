/**
 * Request paths: a template such as `/nodes/{node}/qemu/{vmid}/config`
 * (what the log line shows) filled with escaped values (a volid's `/`
 * becomes %2F, its `:` %3A).
 */
export type PathParams = Record<string, string | number>;

export function fillPath(template: string, params: PathParams = {}): string {
  return template.replace(/\{([a-z]+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`path ${template} needs ${key}`);
    return encodeURIComponent(String(value));
  });
}

/** A query string from defined values only, or '' when there are none. */
export function queryString(query: Record<string, string | number | undefined> = {}): string {
  const entries = Object.entries(query).filter((e): e is [string, string | number] => e[1] !== undefined);
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
}
