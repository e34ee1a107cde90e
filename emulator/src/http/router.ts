import type { RequestContext } from './context.ts';
import type { Reply } from './reply.ts';

/** HTTP methods the backend routes. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A route under `/v1`: a path pattern with `:params`, the scope it needs, and its handler. */
export interface Route {
  method: Method;
  /** Path below `/v1`, e.g. `/databases/:databaseId/collections`. */
  path: string;
  /** The scope a caller needs (`public` for everyone). */
  scope: string;
  /** The handler reads the body itself from `ctx.request` (streamed uploads); the server leaves it unread. */
  streamBody?: boolean;
  handler: (ctx: RequestContext) => Reply | Promise<Reply>;
}

interface CompiledRoute {
  route: Route;
  segments: string[];
}

/** A matched route and its path parameters. */
export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/** Matches `/v1` paths against registered routes; literal segments win over parameters. */
export class Router {
  private readonly routes = new Map<Method, CompiledRoute[]>();

  add(routes: readonly Route[]): void {
    for (const route of routes) {
      const list = this.routes.get(route.method) ?? [];
      list.push({ route, segments: route.path.split('/').filter(Boolean) });
      list.sort((a, b) => specificity(b.segments) - specificity(a.segments));
      this.routes.set(route.method, list);
    }
  }

  /** The route for `method` + `path`, or null; `pathExists` tells a 405 from a 404. */
  match(method: string, path: string): RouteMatch | null {
    const parts = path.split('/').filter(Boolean).map(decodeSegment);
    for (const candidate of this.routes.get(method as Method) ?? []) {
      const params = matchSegments(candidate.segments, parts);
      if (params) return { route: candidate.route, params };
    }
    return null;
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function specificity(segments: string[]): number {
  let score = 0;
  for (const segment of segments) score = score * 2 + (segment.startsWith(':') ? 0 : 1);
  return score + segments.length * 1_000_000;
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i]!;
    const actual = parts[i]!;
    if (expected.startsWith(':')) params[expected.slice(1)] = actual;
    else if (expected !== actual) return null;
  }
  return params;
}

/**
 * A route table's entry: `method path`, the scope a caller needs, and the handler; `streamBody`
 * when the handler reads the body itself.
 */
export function route(
  method: Method,
  path: string,
  scope: string,
  handler: Route['handler'],
  options: Pick<Route, 'streamBody'> = {},
): Route {
  return { method, path, scope, handler, ...options };
}
