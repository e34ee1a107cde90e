import type { Identity } from '../../core/auth/roles.ts';
import { ApiError, invalidParam } from '../../core/errors.ts';
import { resolveId, uniqueId } from '../../core/ids.ts';
import { applyListQueries } from '../../core/list-queries.ts';
import { isGranted, rolesIn } from '../../core/permissions.ts';
import { normalizeDate, now } from '../../core/time.ts';
import type { RequestContext } from '../../http/context.ts';
import { bool, integer, object, stringArray, text } from '../../http/params.ts';
import { accepted, created, noContent, ok, type Reply } from '../../http/reply.ts';
import { route, type Route } from '../../http/router.ts';
import { isValidCron } from './cron.ts';
import { deploymentModel, executionModel, variableModel } from './models.ts';
import type { FunctionRecord, VariableRecord } from './records.ts';
import {
  DEFAULT_SPECIFICATION,
  looksLikeRuntime,
  NODE_RUNTIMES,
  PROJECT_SCOPES,
  runtimeModel,
  SPECIFICATIONS,
} from './runtimes.ts';
import { SYNC_TIMEOUT_MS, type FunctionsStore } from './store.ts';

/** Appwrite's `APP_LIMIT_UPLOAD_CHUNK_SIZE`. */
const CHUNK_SIZE = 5 * 1024 * 1024;
/** Appwrite's default `_APP_COMPUTE_SIZE_LIMIT`. */
const DEPLOYMENT_SIZE_LIMIT = 30_000_000;
const ROLE =
  /^(any|guests|users(\/(verified|unverified))?|user:[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}(\/(verified|unverified))?|team:[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}(\/[a-zA-Z0-9._-]{1,81})?|member:[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}|label:[a-zA-Z0-9]{1,36})$/;
const EVENT = /^[a-zA-Z0-9_*-]+(\.[a-zA-Z0-9_*-]+)*$/;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

function store(ctx: RequestContext): FunctionsStore {
  return ctx.backend.services.functions;
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

/** The function of `:functionId`; `forCaller`: a disabled one is hidden from callers without a key. */
function fn(ctx: RequestContext, forCaller = false): FunctionRecord {
  return store(ctx).function(ctx.params.functionId!, !forCaller || ctx.identity.kind === 'key');
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

// ── functions ─────────────────────────────────────────────────────────────────

function createFunction(ctx: RequestContext): Reply {
  const time = now();
  const record: FunctionRecord = {
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
  store(ctx).createFunction(record);
  return created(store(ctx).functionModelOf(record));
}

function listFunctions(ctx: RequestContext): Reply {
  let all = store(ctx).records.listFunctions();
  const search = typeof ctx.input.search === 'string' ? ctx.input.search.toLowerCase() : '';
  if (search)
    all = all.filter((record) =>
      [record.id, record.name, record.runtime].some((value) =>
        value.toLowerCase().includes(search),
      ),
    );
  const { total, page } = applyListQueries(
    all.map((record) => store(ctx).functionModelOf(record)),
    ctx.input.queries,
    ['name', 'enabled', 'runtime', 'deploymentId', 'schedule', 'scheduleNext', 'timeout'],
  );
  return ok({ total, functions: page });
}

function listRuntimes(): Reply {
  return ok({ total: NODE_RUNTIMES.length, runtimes: NODE_RUNTIMES.map(runtimeModel) });
}

function listSpecifications(): Reply {
  return ok({
    total: SPECIFICATIONS.length,
    specifications: SPECIFICATIONS.map((spec) => ({ ...spec, enabled: true })),
  });
}

function getFunction(ctx: RequestContext): Reply {
  return ok(store(ctx).functionModelOf(fn(ctx)));
}

function updateFunction(ctx: RequestContext): Reply {
  const previous = fn(ctx);
  const record: FunctionRecord = { ...previous, ...readSettings(ctx, previous), updatedAt: now() };
  store(ctx).updateFunction(record);
  return ok(store(ctx).functionModelOf(record));
}

function deleteFunction(ctx: RequestContext): Reply {
  store(ctx).deleteFunction(fn(ctx));
  return noContent();
}

function updateFunctionDeployment(ctx: RequestContext): Reply {
  const record = fn(ctx);
  const deploymentId = text(ctx.input, 'deploymentId', { required: true, max: 36 });
  const deployment = store(ctx).deployment(record, deploymentId);
  if (deployment.status !== 'ready') throw new ApiError('build_not_ready');
  store(ctx).activate(deployment);
  return ok(store(ctx).functionModelOf(store(ctx).function(record.id)));
}

// ── deployments ───────────────────────────────────────────────────────────────

function parseContentRange(value: string): { start: number; end: number; size: number } {
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(value.trim());
  if (!match) throw new ApiError('storage_invalid_content_range');
  const [start, end, size] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (end > size || start > end) throw new ApiError('storage_invalid_content_range');
  return { start, end, size };
}

/** `createDeployment`: a tar.gz in one request or in 5 MiB chunks (`Content-Range`, `X-Appwrite-ID`). */
function createDeployment(ctx: RequestContext): Reply {
  const record = fn(ctx);
  const entrypoint =
    typeof ctx.input.entrypoint === 'string' && ctx.input.entrypoint !== ''
      ? text(ctx.input, 'entrypoint', { max: 1028 })
      : record.entrypoint;
  const commands =
    typeof ctx.input.commands === 'string'
      ? text(ctx.input, 'commands', { max: 8192 })
      : record.commands;
  if (!entrypoint) throw new ApiError('function_entrypoint_missing');
  const file = ctx.files.code ?? Object.values(ctx.files)[0];
  if (!file) throw new ApiError('storage_file_empty', 'No file sent');
  if (!/\.gz$/i.test(file.name)) throw new ApiError('storage_file_type_unsupported');
  const activate = bool(ctx.input, 'activate', false);
  const range = ctx.headers['content-range'];
  let id = uniqueDeploymentId();
  let chunk = 1;
  let chunks = 1;
  let size = file.data.length;
  if (typeof range === 'string' && range !== '') {
    const parsed = parseContentRange(range);
    size = parsed.size;
    const header = ctx.headers['x-appwrite-id'];
    if (typeof header === 'string' && header !== '') id = resolveId('x-appwrite-id', header);
    chunks = Math.ceil(parsed.size / CHUNK_SIZE);
    chunk = Math.floor(parsed.start / CHUNK_SIZE) + 1;
  }
  if (size > DEPLOYMENT_SIZE_LIMIT) throw new ApiError('storage_invalid_file_size');
  const deployment = store(ctx).receiveDeployment(record, {
    id,
    type: ctx.headers['x-sdk-language'] === 'cli' ? 'cli' : 'manual',
    entrypoint,
    commands,
    activate,
    size,
    chunk,
    chunks,
    data: file.data,
  });
  return accepted(deploymentModel(deployment));
}

let lastDeploymentId = '';
function uniqueDeploymentId(): string {
  let id = uniqueId();
  while (id === lastDeploymentId) id = uniqueId();
  lastDeploymentId = id;
  return id;
}

function listDeployments(ctx: RequestContext): Reply {
  const { total, page } = applyListQueries(
    store(ctx).records.listDeployments(fn(ctx).id).map(deploymentModel),
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
}

function getDeployment(ctx: RequestContext): Reply {
  return ok(deploymentModel(store(ctx).deployment(fn(ctx), ctx.params.deploymentId!)));
}

function downloadDeployment(ctx: RequestContext): Reply {
  const deployment = store(ctx).deployment(fn(ctx), ctx.params.deploymentId!);
  return {
    status: 200,
    raw: { data: store(ctx).archive(deployment), contentType: 'application/gzip' },
    headers: { 'Content-Disposition': `attachment; filename="${deployment.id}.tar.gz"` },
  };
}

function cancelDeployment(ctx: RequestContext): Reply {
  const deployment = store(ctx).deployment(fn(ctx), ctx.params.deploymentId!);
  return ok(deploymentModel(store(ctx).cancelDeployment(deployment)));
}

function deleteDeployment(ctx: RequestContext): Reply {
  const record = fn(ctx);
  store(ctx).deleteDeployment(record, store(ctx).deployment(record, ctx.params.deploymentId!));
  return noContent();
}

// ── variables ─────────────────────────────────────────────────────────────────

function variable(ctx: RequestContext, record: FunctionRecord): VariableRecord {
  const found = store(ctx).records.getVariable(record.id, ctx.params.variableId!);
  if (!found) throw new ApiError('variable_not_found');
  return found;
}

function createVariable(ctx: RequestContext): Reply {
  const record = fn(ctx);
  const time = now();
  const newVariable: VariableRecord = {
    id: resolveId('variableId', ctx.input.variableId ?? 'unique()'),
    createdAt: time,
    updatedAt: time,
    functionId: record.id,
    key: text(ctx.input, 'key', { required: true, max: 255 }),
    value: text(ctx.input, 'value', { max: 8192 }),
    secret: bool(ctx.input, 'secret', true),
  };
  if (ctx.input.value === undefined || ctx.input.value === null)
    throw new ApiError('general_argument_invalid', 'Param "value" is not optional.');
  store(ctx).records.saveVariable(newVariable, true);
  return created(variableModel(newVariable));
}

function listVariables(ctx: RequestContext): Reply {
  const { total, page } = applyListQueries(
    store(ctx).records.listVariables(fn(ctx).id).map(variableModel),
    ctx.input.queries,
    ['key', 'resourceType', 'resourceId', 'secret'],
  );
  return ok({ total, variables: page });
}

function getVariable(ctx: RequestContext): Reply {
  return ok(variableModel(variable(ctx, fn(ctx))));
}

function updateVariable(ctx: RequestContext): Reply {
  const previous = variable(ctx, fn(ctx));
  const secret =
    ctx.input.secret === undefined || ctx.input.secret === null
      ? previous.secret
      : bool(ctx.input, 'secret', previous.secret);
  if (previous.secret && !secret) throw new ApiError('variable_cannot_unset_secret');
  const key =
    typeof ctx.input.key === 'string' ? text(ctx.input, 'key', { max: 255 }) : previous.key;
  if (key === '') throw new ApiError('general_argument_invalid');
  const next: VariableRecord = {
    ...previous,
    key,
    value:
      typeof ctx.input.value === 'string'
        ? text(ctx.input, 'value', { max: 8192 })
        : previous.value,
    secret,
    updatedAt: now(),
  };
  store(ctx).records.saveVariable(next, false);
  return ok(variableModel(next));
}

function deleteVariable(ctx: RequestContext): Reply {
  const record = fn(ctx);
  store(ctx).records.deleteVariable(record.id, variable(ctx, record).id);
  return noContent();
}

// ── executions ────────────────────────────────────────────────────────────────

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

/** Whether the caller may read an execution (API keys always; others by its `read` roles). */
function visible(ctx: RequestContext, permissions: readonly string[]): boolean {
  return ctx.identity.kind === 'key' || isGranted(rolesIn(permissions, 'read'), ctx.identity.roles);
}

async function createExecution(ctx: RequestContext): Promise<Reply> {
  requireAnyScope(ctx.identity, ['executions.write', 'execution.write']);
  const record = fn(ctx, true);
  const body = text(ctx.input, 'body', { max: 10_485_760 });
  const isAsync = bool(ctx.input, 'async', false);
  const path = text(ctx.input, 'path', { max: 2048 }) || '/';
  const method = (text(ctx.input, 'method', { max: 10 }) || 'POST').toUpperCase();
  if (!METHODS.includes(method))
    throw invalidParam('method', `Value must be one of (${METHODS.join(', ')})`);
  const headers = readHeaders(ctx);
  const scheduledAt = readScheduledAt(ctx, isAsync);
  store(ctx).assertRunnable(record);
  assertMayExecute(ctx, record);
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
    const execution = store(ctx).enqueue(record, request);
    return accepted(executionModel(execution, ctx.responseFormat));
  }
  const running = store(ctx).runNow(record, request);
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
}

function listExecutions(ctx: RequestContext): Reply {
  requireAnyScope(ctx.identity, ['executions.read', 'execution.read']);
  const record = fn(ctx, true);
  const timeoutMs = record.timeout * 1000;
  const models = store(ctx)
    .records.listExecutions(record.id)
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
}

function getExecution(ctx: RequestContext): Reply {
  requireAnyScope(ctx.identity, ['executions.read', 'execution.read']);
  const record = fn(ctx, true);
  const execution = store(ctx).records.getExecution(ctx.params.executionId!);
  if (!execution || execution.functionId !== record.id || !visible(ctx, execution.permissions))
    throw new ApiError('execution_not_found');
  return ok(executionModel(execution, ctx.responseFormat));
}

function deleteExecution(ctx: RequestContext): Reply {
  store(ctx).deleteExecution(fn(ctx), ctx.params.executionId!);
  return noContent();
}

const FUNCTION = '/functions/:functionId';

/** Every `/v1/functions…` route. */
export const routes: readonly Route[] = [
  route('POST', '/functions', 'functions.write', createFunction),
  route('GET', '/functions', 'functions.read', listFunctions),
  route('GET', '/functions/runtimes', 'public', listRuntimes),
  route('GET', '/functions/specifications', 'public', listSpecifications),
  route('GET', FUNCTION, 'functions.read', getFunction),
  route('PUT', FUNCTION, 'functions.write', updateFunction),
  route('DELETE', FUNCTION, 'functions.write', deleteFunction),
  route('PATCH', `${FUNCTION}/deployment`, 'functions.write', updateFunctionDeployment),
  route('POST', `${FUNCTION}/deployments`, 'functions.write', createDeployment),
  route('GET', `${FUNCTION}/deployments`, 'functions.read', listDeployments),
  route('GET', `${FUNCTION}/deployments/:deploymentId`, 'functions.read', getDeployment),
  route(
    'GET',
    `${FUNCTION}/deployments/:deploymentId/download`,
    'functions.read',
    downloadDeployment,
  ),
  route(
    'PATCH',
    `${FUNCTION}/deployments/:deploymentId/status`,
    'functions.write',
    cancelDeployment,
  ),
  route('DELETE', `${FUNCTION}/deployments/:deploymentId`, 'functions.write', deleteDeployment),
  route('POST', `${FUNCTION}/variables`, 'functions.write', createVariable),
  route('GET', `${FUNCTION}/variables`, 'functions.read', listVariables),
  route('GET', `${FUNCTION}/variables/:variableId`, 'functions.read', getVariable),
  route('PUT', `${FUNCTION}/variables/:variableId`, 'functions.write', updateVariable),
  route('DELETE', `${FUNCTION}/variables/:variableId`, 'functions.write', deleteVariable),
  route('POST', `${FUNCTION}/executions`, 'public', createExecution),
  route('GET', `${FUNCTION}/executions`, 'public', listExecutions),
  route('GET', `${FUNCTION}/executions/:executionId`, 'public', getExecution),
  route('DELETE', `${FUNCTION}/executions/:executionId`, 'executions.write', deleteExecution),
];
