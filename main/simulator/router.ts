/** Matches a request path against the route templates. */
import type { Route } from './context';

export interface RouteMatch {
  route: Route;
  path: Record<string, string>;
}

interface Compiled {
  route: Route;
  segments: string[];
}

export class Router {
  private readonly compiled: Compiled[];

  constructor(readonly routes: readonly Route[]) {
    this.compiled = routes.map((route) => ({ route, segments: route.path.split('/').slice(1) }));
  }

  /** `segments` are the decoded path segments after /api2/json. */
  match(method: string, segments: string[]): RouteMatch | undefined {
    for (const { route, segments: template } of this.compiled) {
      if (route.method !== method || template.length !== segments.length) continue;
      const path: Record<string, string> = {};
      const ok = template.every((t, i) => {
        const s = segments[i]!;
        if (t.startsWith('{')) return (path[t.slice(1, -1)] = s).length > 0;
        return t === s;
      });
      if (ok) return { route, path };
    }
    return undefined;
  }
}
