import type { BackendModule } from '../backend.ts';
import { resolveId } from '../core/ids.ts';
import { normalizeDate } from '../core/time.ts';
import { ApiError, invalidParam } from '../http/errors.ts';
import { integer, stringArray, text } from '../http/params.ts';
import { created, noContent, ok } from '../http/reply.ts';

function keyModel(key: {
  id: string;
  name: string;
  scopes: string[];
  expire: string | null;
  secret: string;
  createdAt: string;
  updatedAt: string;
  accessedAt?: string;
}): Record<string, unknown> {
  return {
    $id: key.id,
    $createdAt: key.createdAt,
    $updatedAt: key.updatedAt,
    name: key.name,
    expire: key.expire ?? '',
    scopes: key.scopes,
    secret: key.secret,
    accessedAt: key.accessedAt ?? '',
    sdks: [],
  };
}

/** Project API keys (`/v1/project/keys`): create keys with chosen scopes, and short-lived ones. */
export const projectModule: BackendModule = {
  name: 'project',
  routes: () => [
    {
      method: 'POST',
      path: '/project/keys',
      scope: 'keys.write',
      handler: (ctx) => {
        const id = resolveId('keyId', ctx.input.keyId ?? 'unique()');
        const name = text(ctx.input, 'name', { required: true, max: 128 });
        const scopes = stringArray(ctx.input, 'scopes', { required: true });
        let expire: string | null = null;
        if (typeof ctx.input.expire === 'string' && ctx.input.expire) {
          expire = normalizeDate(ctx.input.expire);
          if (!expire) throw invalidParam('expire', 'Value must be valid date in ISO 8601 format.');
        }
        return created(keyModel(ctx.backend.auth.createKey({ id, name, scopes, expire })));
      },
    },
    {
      method: 'POST',
      path: '/project/keys/ephemeral',
      scope: 'keys.write',
      handler: (ctx) => {
        const scopes = stringArray(ctx.input, 'scopes', { required: true });
        const duration = integer(ctx.input, 'duration', { min: 1, max: 3600, fallback: 900 })!;
        return created({ jwt: ctx.backend.auth.createDynamicKey(scopes, duration * 1000) });
      },
    },
    {
      method: 'GET',
      path: '/project/keys',
      scope: 'keys.read',
      handler: (ctx) => {
        const keys = ctx.backend.auth.listKeys();
        return ok({ total: keys.length, keys: keys.map(keyModel) });
      },
    },
    {
      method: 'GET',
      path: '/project/keys/:keyId',
      scope: 'keys.read',
      handler: (ctx) => {
        const key = ctx.backend.auth.listKeys().find((k) => k.id === ctx.params.keyId);
        if (!key) throw new ApiError('key_not_found');
        return ok(keyModel(key));
      },
    },
    {
      method: 'DELETE',
      path: '/project/keys/:keyId',
      scope: 'keys.write',
      handler: (ctx) => {
        if (!ctx.backend.auth.deleteKey(ctx.params.keyId!)) throw new ApiError('key_not_found');
        return noContent();
      },
    },
  ],
};
