import type { RequestContext } from '../../http/context.ts';
import { ok, type Reply } from '../../http/reply.ts';
import { route, type Route } from '../../http/router.ts';
import { healthStatusModel, healthVersionModel } from './models.ts';

function getVersion(ctx: RequestContext): Reply {
  return ok(healthVersionModel(ctx.backend.services.health.version));
}

function getHealth(ctx: RequestContext): Reply {
  return ok(healthStatusModel(ctx.backend.services.health.httpStatus()));
}

/** `/v1/health/version`, public, and `/v1/health` for API keys. */
export const routes: readonly Route[] = [
  route('GET', '/health/version', 'public', getVersion),
  route('GET', '/health', 'health.read', getHealth),
];
