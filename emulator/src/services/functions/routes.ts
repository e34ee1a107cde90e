import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Backend } from '../../backend.ts';
import type { Identity } from '../../core/auth.ts';
import { generateEvents } from '../../core/events.ts';
import { resolveId } from '../../core/ids.ts';
import { isGranted } from '../../core/permissions.ts';
import { normalizeDate, now } from '../../core/time.ts';
import type { RequestContext } from '../../http/context.ts';
import { ApiError, invalidParam } from '../../http/errors.ts';
import { bool, integer, object, stringArray, text } from '../../http/params.ts';
import { accepted, created, noContent, ok, type Reply } from '../../http/reply.ts';
import type { Route } from '../../http/router.ts';
import { isValidCron } from './cron.ts';
import { deploymentModel, executionModel, functionModel, variableModel } from './models.ts';
import { applyListQueries } from './queries.ts';
import {
  DEFAULT_SPECIFICATION,
  looksLikeRuntime,
  NODE_RUNTIMES,
  PROJECT_SCOPES,
  runtimeModel,
  SPECIFICATIONS,
} from './runtimes.ts';
import { functionsOf, SYNC_TIMEOUT_MS, writeArchive, type FunctionsService } from './service.ts';
import type { DeploymentRecord, FunctionRecord, VariableRecord } from './store.ts';

/** Appwrite's `APP_LIMIT_UPLOAD_CHUNK_SIZE`. */
const CHUNK_SIZE = 5 * 1024 * 1024;
/** Appwrite's default `_APP_COMPUTE_SIZE_LIMIT`. */
const DEPLOYMENT_SIZE_LIMIT = 30_000_000;
const ROLE =
  /^(any|guests|users(\/(verified|unverified))?|user:[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}(\/(verified|unverified))?|team:[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}(\/[a-zA-Z0-9._-]{1,81})?|member:[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}|label:[a-zA-Z0-9]{1,36})$/;
const EVENT = /^[a-zA-Z0-9_*-]+(\.[a-zA-Z0-9_*-]+)*$/;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

function service(ctx: RequestContext): FunctionsService {
  return functionsOf(ctx.backend);
}

function requireAnyScope(identity: Identity, scopes: readonly string[]): void {
  if (identity.scopes.has('*') || scopes.some((scope) => identity.scopes.has(scope))) return;
  const who =
    identity.kind === 'key'
      ? 'app (role: applications)'
      : identity.kind === 'user'
        ? `${identity.user.email || identity.user.id} (role: users)`
        : 'User (role: guests)';
  throw new ApiError(
    'general_unauthorized_scope',
    `${who} missing scopes (${JSON.stringify(scopes)})`,
  );
}

function findFunction(ctx: RequestContext, forCaller = false): FunctionRecord {
  const fn = service(ctx).store.getFunction(ctx.params.functionId!);
  if (!fn) throw new ApiError('function_not_found');
  if (forCaller && !fn.enabled && ctx.identity.kind !== 'key')
    throw new ApiError('function_not_found');
  return fn;
}

function fullModel(ctx: RequestContext, fn: FunctionRecord): Record<string, unknown> {
  return functionModel(fn, service(ctx).store.listVariables(fn.id));
}

function publishFunction(backend: Backend, fn: FunctionRecord, action: string): void {
  // Function events reach no realtime client (Appwrite sends them to the console only), but
  // other functions may be triggered by them.
  backend.bus.publish({
    events: generateEvents(`functions.[functionId].${action}`, { functionId: fn.id }),
    channels: [],
    roles: [],
    payload: functionModel(fn, []),
  });
}

/** Reads the settings of `functions.create`/`update`; omitted params take Appwrite's defaults. */
function readSettings(ctx: RequestContext, previous: FunctionRecord | null) {
  const input = ctx.input;
  const runtime = text(input, 'runtime', { required: !previous, max: 128 }) || previous!.runtime;
  if (!looksLikeRuntime(runtime))
    throw invalidParam('runtime', `Value must be one of (${NODE_RUNTIMES.join(', ')})`);
  if (!NODE_RUNTIMES.includes(runtime))
    throw new ApiError(
      'function_runtime_unsupported',
      `Runtime "${runtime}" is not supported (the local backend runs Node.js runtimes: ${NODE_RUNTIMES.join(', ')})`,
    );
  const execute = stringArray(input, 'execute', { maxLength: 64 });
  for (const role of execute)
    if (!ROLE.test(role))
      throw invalidParam(
        'execute',
        `Role "${role}" is not allowed. Must be one of: any, guests, users, user, team, member, label.`,
      );
  const events = stringArray(input, 'events', { maxLength: 256 });
  for (const event of events)
    if (!EVENT.test(event)) throw invalidParam('events', `Event "${event}" is not valid.`);
  const schedule = text(input, 'schedule', { max: 100 });
  if (schedule && !isValidCron(schedule))
    throw invalidParam('schedule', 'String must be a valid cron expression');
  const scopes = stringArray(input, 'scopes', { maxLength: 64 });
  for (const scope of scopes)
    if (!PROJECT_SCOPES.includes(scope))
      throw invalidParam('scopes', `Value must be one of (${PROJECT_SCOPES.join(', ')})`);
  const spec = (name: string) => {
    const value = text(input, name, { max: 128, fallback: DEFAULT_SPECIFICATION });
    if (!SPECIFICATIONS.some((candidate) => candidate.slug === value))
      throw invalidParam(
        name,
        `Specification must be one of: ${SPECIFICATIONS.map((s) => s.slug).join(', ')}`,
      );
    return value;
  };
  return {
    name: text(input, 'name', { required: true, max: 128 }),
    runtime,
    execute,
    events,
    schedule,
    timeout: integer(input, 'timeout', { min: 1, max: 900, fallback: 15 })!,
    enabled: bool(input, 'enabled', true),
    logging: bool(input, 'logging', true),
    entrypoint: text(input, 'entrypoint', { max: 1028 }),
    commands: text(input, 'commands', { max: 8192 }),
    scopes,
    buildSpecification: spec('buildSpecification'),
    runtimeSpecification: spec('runtimeSpecification'),
    deploymentRetention: integer(input, 'deploymentRetention', {
      min: 0,
      max: 36_500,
      fallback: 0,
    })!,
  };
}

function functionRoutes(): Route[] {
  return [
    {
      method: 'POST',
      path: '/functions',
      scope: 'functions.write',
      handler: (ctx) => {
        const svc = service(ctx);
        const time = now();
        const fn: FunctionRecord = {
          id: resolveId('functionId', ctx.input.functionId),
          createdAt: time,
          updatedAt: time,
          ...readSettings(ctx, null),
          deploymentId: '',
          deploymentCreatedAt: '',
          latestDeploymentId: '',
          latestDeploymentCreatedAt: '',
          latestDeploymentStatus: '',
        };
        svc.store.insertFunction(fn);
        svc.functionsChanged(fn.id);
        publishFunction(ctx.backend, fn, 'create');
        console.log(`[functions] ${fn.id} created; its URL: ${svc.functionUrl(fn.id)}`);
        return created(fullModel(ctx, fn));
      },
    },
    {
      method: 'GET',
      path: '/functions',
      scope: 'functions.read',
      handler: (ctx) => {
        let all = service(ctx).store.listFunctions();
        const search = typeof ctx.input.search === 'string' ? ctx.input.search.toLowerCase() : '';
        if (search)
          all = all.filter((fn) =>
            [fn.id, fn.name, fn.runtime].some((value) => value.toLowerCase().includes(search)),
          );
        const { total, page } = applyListQueries(
          all.map((fn) => fullModel(ctx, fn)),
          ctx.input.queries,
          ['name', 'enabled', 'runtime', 'deploymentId', 'schedule', 'scheduleNext', 'timeout'],
        );
        return ok({ total, functions: page });
      },
    },
    {
      method: 'GET',
      path: '/functions/runtimes',
      scope: 'public',
      handler: () => ok({ total: NODE_RUNTIMES.length, runtimes: NODE_RUNTIMES.map(runtimeModel) }),
    },
    {
      method: 'GET',
      path: '/functions/specifications',
      scope: 'public',
      handler: () =>
        ok({
          total: SPECIFICATIONS.length,
          specifications: SPECIFICATIONS.map((spec) => ({ ...spec, enabled: true })),
        }),
    },
    {
      method: 'GET',
      path: '/functions/:functionId',
      scope: 'functions.read',
      handler: (ctx) => ok(fullModel(ctx, findFunction(ctx))),
    },
    {
      method: 'PUT',
      path: '/functions/:functionId',
      scope: 'functions.write',
      handler: (ctx) => {
        const svc = service(ctx);
        const previous = findFunction(ctx);
        const fn: FunctionRecord = {
          ...previous,
          ...readSettings(ctx, previous),
          updatedAt: now(),
        };
        svc.store.saveFunction(fn);
        svc.functionsChanged(fn.id);
        publishFunction(ctx.backend, fn, 'update');
        return ok(fullModel(ctx, fn));
      },
    },
    {
      method: 'DELETE',
      path: '/functions/:functionId',
      scope: 'functions.write',
      handler: (ctx) => {
        const svc = service(ctx);
        const fn = findFunction(ctx);
        const deployments = svc.store.listDeployments(fn.id);
        svc.store.deleteFunction(fn.id);
        svc.functionsChanged(fn.id);
        for (const deployment of deployments) svc.removeDeploymentFiles(deployment.id);
        publishFunction(ctx.backend, fn, 'delete');
        return noContent();
      },
    },
    {
      method: 'PATCH',
      path: '/functions/:functionId/deployment',
      scope: 'functions.write',
      handler: (ctx) => {
        const svc = service(ctx);
        const fn = findFunction(ctx);
        const deploymentId = text(ctx.input, 'deploymentId', { required: true, max: 36 });
        const deployment = svc.store.getDeployment(deploymentId);
        if (!deployment || deployment.functionId !== fn.id)
          throw new ApiError('deployment_not_found');
        if (deployment.status !== 'ready') throw new ApiError('build_not_ready');
        svc.activate(deployment);
        return ok(fullModel(ctx, svc.store.getFunction(fn.id)!));
      },
    },
  ];
}

function findDeployment(ctx: RequestContext, fn: FunctionRecord): DeploymentRecord {
  const deployment = service(ctx).store.getDeployment(ctx.params.deploymentId!);
  if (!deployment || deployment.functionId !== fn.id) throw new ApiError('deployment_not_found');
  return deployment;
}

function parseContentRange(value: string): { start: number; end: number; size: number } {
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(value.trim());
  if (!match) throw new ApiError('storage_invalid_content_range');
  const [start, end, size] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (end > size || start > end) throw new ApiError('storage_invalid_content_range');
  return { start, end, size };
}

/** `createDeployment`: a tar.gz in one request or in 5 MiB chunks (`Content-Range`, `X-Appwrite-ID`). */
function createDeployment(ctx: RequestContext): Reply {
  const svc = service(ctx);
  const fn = findFunction(ctx);
  const entrypoint =
    typeof ctx.input.entrypoint === 'string' && ctx.input.entrypoint !== ''
      ? text(ctx.input, 'entrypoint', { max: 1028 })
      : fn.entrypoint;
  const commands =
    typeof ctx.input.commands === 'string'
      ? text(ctx.input, 'commands', { max: 8192 })
      : fn.commands;
  if (!entrypoint) throw new ApiError('function_entrypoint_missing');
  const file = ctx.files.code ?? Object.values(ctx.files)[0];
  if (!file) throw new ApiError('storage_file_empty', 'No file sent');
  if (!/\.gz$/i.test(file.name)) throw new ApiError('storage_file_type_unsupported');
  const activate = bool(ctx.input, 'activate', false);
  const range = ctx.headers['content-range'];
  let deploymentId = uniqueDeploymentId();
  let chunk = 1;
  let chunks = 1;
  let size = file.data.length;
  if (typeof range === 'string' && range !== '') {
    const parsed = parseContentRange(range);
    size = parsed.size;
    const header = ctx.headers['x-appwrite-id'];
    if (typeof header === 'string' && header !== '')
      deploymentId = resolveId('x-appwrite-id', header);
    chunks = Math.ceil(parsed.size / CHUNK_SIZE);
    chunk = Math.floor(parsed.start / CHUNK_SIZE) + 1;
  }
  if (size > DEPLOYMENT_SIZE_LIMIT) throw new ApiError('storage_invalid_file_size');
  let deployment = svc.store.getDeployment(deploymentId);
  if (deployment && deployment.functionId !== fn.id) throw new ApiError('deployment_not_found');
  if (deployment && deployment.chunksUploaded >= deployment.chunksTotal)
    return accepted(deploymentModel(deployment));
  const time = now();
  deployment ??= {
    id: deploymentId,
    createdAt: time,
    updatedAt: time,
    functionId: fn.id,
    type: ctx.headers['x-sdk-language'] === 'cli' ? 'cli' : 'manual',
    entrypoint,
    commands,
    sourceSize: size,
    buildSize: 0,
    activate,
    status: 'waiting',
    buildLogs: '',
    buildDuration: 0,
    chunksTotal: chunks,
    chunksUploaded: 0,
  };
  if (chunks === 1) {
    writeArchive(svc, deployment.id, file.data);
    deployment.chunksUploaded = 1;
  } else {
    const dir = svc.uploadDir(deployment.id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, String(chunk).padStart(6, '0')), file.data);
    const parts = readdirSync(dir).sort();
    deployment.chunksUploaded = parts.length;
    if (parts.length >= chunks) {
      writeArchive(
        svc,
        deployment.id,
        Buffer.concat(parts.map((part) => readFileSync(join(dir, part)))),
      );
    }
  }
  svc.saveDeployment(deployment);
  if (deployment.chunksUploaded >= deployment.chunksTotal) {
    const id = deployment.id;
    setImmediate(() => void svc.build(id));
  }
  return accepted(deploymentModel(deployment));
}

let lastDeploymentId = '';
function uniqueDeploymentId(): string {
  let id = resolveId('deploymentId', 'unique()');
  while (id === lastDeploymentId) id = resolveId('deploymentId', 'unique()');
  lastDeploymentId = id;
  return id;
}

function deploymentRoutes(): Route[] {
  return [
    {
      method: 'POST',
      path: '/functions/:functionId/deployments',
      scope: 'functions.write',
      handler: createDeployment,
    },
    {
      method: 'GET',
      path: '/functions/:functionId/deployments',
      scope: 'functions.read',
      handler: (ctx) => {
        const fn = findFunction(ctx);
        const { total, page } = applyListQueries(
          service(ctx).store.listDeployments(fn.id).map(deploymentModel),
          ctx.input.queries,
          [
            'buildSize',
            'sourceSize',
            'totalSize',
            'buildDuration',
            'status',
            'activate',
            'type',
            'entrypoint',
          ],
        );
        return ok({ total, deployments: page });
      },
    },
    {
      method: 'GET',
      path: '/functions/:functionId/deployments/:deploymentId',
      scope: 'functions.read',
      handler: (ctx) => ok(deploymentModel(findDeployment(ctx, findFunction(ctx)))),
    },
    {
      method: 'GET',
      path: '/functions/:functionId/deployments/:deploymentId/download',
      scope: 'functions.read',
      handler: (ctx) => {
        const deployment = findDeployment(ctx, findFunction(ctx));
        const path = service(ctx).archivePath(deployment.id);
        if (!existsSync(path)) throw new ApiError('deployment_not_found');
        return {
          status: 200,
          raw: { data: readFileSync(path), contentType: 'application/gzip' },
          headers: { 'Content-Disposition': `attachment; filename="${deployment.id}.tar.gz"` },
        };
      },
    },
    {
      method: 'PATCH',
      path: '/functions/:functionId/deployments/:deploymentId/status',
      scope: 'functions.write',
      handler: (ctx) => {
        const svc = service(ctx);
        const deployment = findDeployment(ctx, findFunction(ctx));
        if (deployment.status === 'ready' || deployment.status === 'failed')
          throw new ApiError('build_already_completed');
        if (deployment.status === 'canceled') throw new ApiError('build_canceled');
        deployment.status = 'canceled';
        svc.saveDeployment(deployment);
        return ok(deploymentModel(deployment));
      },
    },
    {
      method: 'DELETE',
      path: '/functions/:functionId/deployments/:deploymentId',
      scope: 'functions.write',
      handler: (ctx) => {
        const svc = service(ctx);
        const fn = findFunction(ctx);
        const deployment = findDeployment(ctx, fn);
        svc.store.deleteDeployment(deployment.id);
        svc.removeDeploymentFiles(deployment.id);
        if (fn.deploymentId === deployment.id) {
          svc.store.saveFunction({
            ...fn,
            deploymentId: '',
            deploymentCreatedAt: '',
            updatedAt: now(),
          });
          svc.functionsChanged(fn.id);
        }
        return noContent();
      },
    },
  ];
}

function variableRoutes(): Route[] {
  const find = (ctx: RequestContext, fn: FunctionRecord): VariableRecord => {
    const variable = service(ctx).store.getVariable(fn.id, ctx.params.variableId!);
    if (!variable) throw new ApiError('variable_not_found');
    return variable;
  };
  return [
    {
      method: 'POST',
      path: '/functions/:functionId/variables',
      scope: 'functions.write',
      handler: (ctx) => {
        const fn = findFunction(ctx);
        const time = now();
        const variable: VariableRecord = {
          id: resolveId('variableId', ctx.input.variableId ?? 'unique()'),
          createdAt: time,
          updatedAt: time,
          functionId: fn.id,
          key: text(ctx.input, 'key', { required: true, max: 255 }),
          value: text(ctx.input, 'value', { max: 8192 }),
          secret: bool(ctx.input, 'secret', true),
        };
        if (ctx.input.value === undefined || ctx.input.value === null)
          throw new ApiError('general_argument_invalid', 'Param "value" is not optional.');
        service(ctx).store.saveVariable(variable, true);
        return created(variableModel(variable));
      },
    },
    {
      method: 'GET',
      path: '/functions/:functionId/variables',
      scope: 'functions.read',
      handler: (ctx) => {
        const fn = findFunction(ctx);
        const { total, page } = applyListQueries(
          service(ctx).store.listVariables(fn.id).map(variableModel),
          ctx.input.queries,
          ['key', 'resourceType', 'resourceId', 'secret'],
        );
        return ok({ total, variables: page });
      },
    },
    {
      method: 'GET',
      path: '/functions/:functionId/variables/:variableId',
      scope: 'functions.read',
      handler: (ctx) => ok(variableModel(find(ctx, findFunction(ctx)))),
    },
    {
      method: 'PUT',
      path: '/functions/:functionId/variables/:variableId',
      scope: 'functions.write',
      handler: (ctx) => {
        const fn = findFunction(ctx);
        const previous = find(ctx, fn);
        const secret =
          ctx.input.secret === undefined || ctx.input.secret === null
            ? previous.secret
            : bool(ctx.input, 'secret', previous.secret);
        if (previous.secret && !secret) throw new ApiError('variable_cannot_unset_secret');
        const key =
          typeof ctx.input.key === 'string' ? text(ctx.input, 'key', { max: 255 }) : previous.key;
        if (key === '') throw new ApiError('general_argument_invalid');
        const variable: VariableRecord = {
          ...previous,
          key,
          value:
            typeof ctx.input.value === 'string'
              ? text(ctx.input, 'value', { max: 8192 })
              : previous.value,
          secret,
          updatedAt: now(),
        };
        service(ctx).store.saveVariable(variable, false);
        return ok(variableModel(variable));
      },
    },
    {
      method: 'DELETE',
      path: '/functions/:functionId/variables/:variableId',
      scope: 'functions.write',
      handler: (ctx) => {
        const fn = findFunction(ctx);
        service(ctx).store.deleteVariable(fn.id, find(ctx, fn).id);
        return noContent();
      },
    },
  ];
}

function readHeaders(ctx: RequestContext): Record<string, string> {
  let value = ctx.input.headers;
  if (value === undefined || value === null || value === '') return {};
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw invalidParam('headers', 'Value must be a valid object.');
    }
  }
  const headers = object({ headers: value }, 'headers') ?? {};
  const out: Record<string, string> = {};
  const entries = Object.entries(headers);
  if (entries.length > 100) throw invalidParam('headers', 'Maximum of 100 headers are allowed.');
  for (const [name, raw] of entries) {
    if (
      !/^[a-zA-Z0-9_-]{1,256}$/.test(name) ||
      (typeof raw !== 'string' && typeof raw !== 'number')
    )
      throw invalidParam('headers', 'Invalid header: keys and values must be strings.');
    out[name.toLowerCase()] = String(raw);
  }
  return out;
}

function readScheduledAt(ctx: RequestContext, isAsync: boolean): string | null {
  const raw = ctx.input.scheduledAt;
  if (raw === undefined || raw === null || raw === '') return null;
  if (!isAsync)
    throw new ApiError(
      'general_bad_request',
      'Scheduled executions must run asynchronously. Set scheduledAt to a future date, or set async to true.',
    );
  const value = typeof raw === 'string' ? normalizeDate(raw) : null;
  if (!value || Date.parse(value) < Date.now() + 60_000 - 1_000)
    throw new ApiError(
      'general_bad_request',
      'Execution schedule must be a valid date, and at least 1 minute from now',
    );
  return value;
}

function assertMayExecute(ctx: RequestContext, fn: FunctionRecord): void {
  if (ctx.identity.kind === 'key') return;
  if (isGranted(fn.execute, ctx.identity.roles)) return;
  const roles = ['any', ...ctx.identity.roles];
  const message =
    fn.execute.length === 0
      ? "No permissions provided for action 'execute'"
      : `Missing "execute" permission for role "${fn.execute.at(-1)}". Only "${JSON.stringify(roles)}" scopes are allowed and "${JSON.stringify(fn.execute)}" was given.`;
  throw new ApiError('user_unauthorized', message);
}

/** Checks that `fn` can run now: a Node runtime and a ready, active deployment. */
export function assertRunnable(svc: FunctionsService, fn: FunctionRecord): void {
  if (!NODE_RUNTIMES.includes(fn.runtime))
    throw new ApiError('function_runtime_unsupported', `Runtime "${fn.runtime}" is not supported`);
  const deployment = fn.deploymentId ? svc.store.getDeployment(fn.deploymentId) : null;
  if (!deployment || deployment.functionId !== fn.id)
    throw new ApiError(
      'deployment_not_found',
      'Deployment not found. Create a deployment before trying to execute a function',
    );
  if (deployment.status !== 'ready') throw new ApiError('build_not_ready');
}

function executionRoutes(): Route[] {
  const visible = (ctx: RequestContext, permissions: readonly string[]) =>
    ctx.identity.kind === 'key' ||
    permissions.some((permission) => {
      const role = /^read\("(.+)"\)$/.exec(permission)?.[1];
      return role !== undefined && (role === 'any' || ctx.identity.roles.has(role));
    });
  return [
    {
      method: 'POST',
      path: '/functions/:functionId/executions',
      scope: 'public',
      handler: async (ctx) => {
        requireAnyScope(ctx.identity, ['executions.write', 'execution.write']);
        const svc = service(ctx);
        const fn = findFunction(ctx, true);
        const body = text(ctx.input, 'body', { max: 10_485_760 });
        const isAsync = bool(ctx.input, 'async', false);
        const path = text(ctx.input, 'path', { max: 2048 }) || '/';
        const method = (text(ctx.input, 'method', { max: 10 }) || 'POST').toUpperCase();
        if (!METHODS.includes(method))
          throw invalidParam('method', `Value must be one of (${METHODS.join(', ')})`);
        const headers = readHeaders(ctx);
        const scheduledAt = readScheduledAt(ctx, isAsync);
        assertRunnable(svc, fn);
        assertMayExecute(ctx, fn);
        const request = {
          trigger: scheduledAt ? ('schedule' as const) : ('http' as const),
          method,
          path: path.startsWith('/') ? path : `/${path}`,
          headers,
          body,
          user: ctx.identity.kind === 'user' ? ctx.identity.user : null,
          sessionId: ctx.identity.kind === 'user' ? (ctx.identity.session?.id ?? null) : null,
          ip: ctx.ip,
          scheduledAt,
        };
        if (isAsync) {
          const execution = svc.enqueue(fn, request);
          return accepted(executionModel(execution, ctx.responseFormat));
        }
        const running = svc.runNow(fn, request);
        let timer: NodeJS.Timeout | undefined;
        const finished = await Promise.race([
          running,
          new Promise<null>((resolve) => {
            timer = setTimeout(() => resolve(null), SYNC_TIMEOUT_MS);
          }),
        ]);
        clearTimeout(timer);
        if (!finished) throw new ApiError('function_synchronous_timeout');
        const model = executionModel(finished.execution, ctx.responseFormat);
        model.responseBody = finished.response.body.toString('utf8');
        model.responseHeaders = [
          ...Object.entries(finished.response.headers).map(([name, value]) => ({ name, value })),
          { name: 'x-appwrite-execution-id', value: finished.execution.id },
        ];
        return created(model);
      },
    },
    {
      method: 'GET',
      path: '/functions/:functionId/executions',
      scope: 'public',
      handler: (ctx) => {
        requireAnyScope(ctx.identity, ['executions.read', 'execution.read']);
        const fn = findFunction(ctx, true);
        const timeoutMs = fn.timeout * 1000;
        const models = service(ctx)
          .store.listExecutions(fn.id)
          .filter((execution) => visible(ctx, execution.permissions))
          .map((execution) => {
            const model = executionModel(execution, ctx.responseFormat);
            // As Appwrite: an execution stuck past its timeout is reported failed.
            if (
              (execution.status === 'waiting' || execution.status === 'processing') &&
              Date.now() - Date.parse(execution.createdAt) >= timeoutMs + 60_000
            )
              model.status = 'failed';
            return model;
          });
        const { total, page } = applyListQueries(models, ctx.input.queries, [
          'trigger',
          'status',
          'responseStatusCode',
          'duration',
          'requestMethod',
          'requestPath',
          'deploymentId',
        ]);
        const includeTotal = bool(ctx.input, 'total', true);
        return ok({ total: includeTotal ? total : 0, executions: page });
      },
    },
    {
      method: 'GET',
      path: '/functions/:functionId/executions/:executionId',
      scope: 'public',
      handler: (ctx) => {
        requireAnyScope(ctx.identity, ['executions.read', 'execution.read']);
        const fn = findFunction(ctx, true);
        const execution = service(ctx).store.getExecution(ctx.params.executionId!);
        if (!execution || execution.functionId !== fn.id || !visible(ctx, execution.permissions))
          throw new ApiError('execution_not_found');
        return ok(executionModel(execution, ctx.responseFormat));
      },
    },
    {
      method: 'DELETE',
      path: '/functions/:functionId/executions/:executionId',
      scope: 'executions.write',
      handler: (ctx) => {
        const fn = findFunction(ctx);
        const svc = service(ctx);
        const execution = svc.store.getExecution(ctx.params.executionId!);
        if (!execution || execution.functionId !== fn.id) throw new ApiError('execution_not_found');
        if (execution.status === 'waiting' || execution.status === 'processing')
          throw new ApiError('execution_in_progress');
        svc.store.deleteExecution(execution.id);
        return noContent();
      },
    },
  ];
}

/** Every `/v1/functions…` route. */
export function functionsRoutes(): Route[] {
  return [...functionRoutes(), ...deploymentRoutes(), ...variableRoutes(), ...executionRoutes()];
}
