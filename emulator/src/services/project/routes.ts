import { invalidParam } from '../../core/errors.ts';
import { resolveId } from '../../core/ids.ts';
import { normalizeDate } from '../../core/time.ts';
import type { RequestContext } from '../../http/context.ts';
import { integer, stringArray, text } from '../../http/params.ts';
import { created, noContent, ok, type Reply } from '../../http/reply.ts';
import { route, type Route } from '../../http/router.ts';
import { keyModel } from './models.ts';
import type { ProjectStore } from './store.ts';

function store(ctx: RequestContext): ProjectStore {
  return ctx.backend.services.project;
}

function createKey(ctx: RequestContext): Reply {
  const id = resolveId('keyId', ctx.input.keyId ?? 'unique()');
  const name = text(ctx.input, 'name', { required: true, max: 128 });
  const scopes = stringArray(ctx.input, 'scopes', { required: true });
  let expire: string | null = null;
  if (typeof ctx.input.expire === 'string' && ctx.input.expire) {
    expire = normalizeDate(ctx.input.expire);
    if (!expire) throw invalidParam('expire', 'Value must be valid date in ISO 8601 format.');
  }
  return created(keyModel(store(ctx).createKey({ id, name, scopes, expire })));
}

function createEphemeralKey(ctx: RequestContext): Reply {
  const scopes = stringArray(ctx.input, 'scopes', { required: true });
  const duration = integer(ctx.input, 'duration', { min: 1, max: 3600, fallback: 900 })!;
  return created({ jwt: store(ctx).createEphemeralKey(scopes, duration * 1000) });
}

function listKeys(ctx: RequestContext): Reply {
  const keys = store(ctx).listKeys();
  return ok({ total: keys.length, keys: keys.map(keyModel) });
}

function getKey(ctx: RequestContext): Reply {
  return ok(keyModel(store(ctx).key(ctx.params.keyId!)));
}

function deleteKey(ctx: RequestContext): Reply {
  store(ctx).deleteKey(ctx.params.keyId!);
  return noContent();
}

/** Project API keys (`/v1/project/keys`): keys with chosen scopes, and short-lived ones. */
export const routes: readonly Route[] = [
  route('POST', '/project/keys', 'keys.write', createKey),
  route('POST', '/project/keys/ephemeral', 'keys.write', createEphemeralKey),
  route('GET', '/project/keys', 'keys.read', listKeys),
  route('GET', '/project/keys/:keyId', 'keys.read', getKey),
  route('DELETE', '/project/keys/:keyId', 'keys.write', deleteKey),
];
