import { APPWRITE_ROUTES } from './appwrite-routes.ts';
import { route, Router, type Method } from './router.ts';

let known: { router: Router; names: Map<string, string> } | null = null;

/** Appwrite's routes (from the pinned SDKs) in a router, built on first use. */
function appwriteRoutes(): { router: Router; names: Map<string, string> } {
  if (known) return known;
  const router = new Router();
  const names = new Map<string, string>();
  const refuse = () => {
    throw new Error('never called');
  };
  router.add(
    APPWRITE_ROUTES.map((line) => {
      const [method, path, name] = line.split(' ') as [Method, string, string];
      names.set(`${method} ${path}`, name);
      return route(method, path, 'public', refuse);
    }),
  );
  return (known = { router, names });
}

/**
 * The SDK method of an Appwrite route the local backend does not serve (e.g.
 * `locale.listCountries` for `GET /locale/countries`), or null when Appwrite has no such route
 * either. `path` is below `/v1`.
 */
export function unsupportedRoute(method: string, path: string): string | null {
  const { router, names } = appwriteRoutes();
  const match = router.match(method, path);
  return match ? (names.get(`${match.route.method} ${match.route.path}`) ?? null) : null;
}
