import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { extract } from 'tar';
import type { Backend } from '../../backend.ts';
import type { UserRecord } from '../../core/auth/users.ts';
import type { BackendEvent } from '../../core/events.ts';
import { uniqueId } from '../../core/ids.ts';
import { formatDate, now } from '../../core/time.ts';
import { ApiError, APPWRITE_VERSION } from '../../core/errors.ts';
import { cronMatches, parseCron } from './cron.ts';
import { executionModel, functionModel } from './models.ts';
import { RuntimePool, type WorkerOutcome } from './pool.ts';
import { NODE_RUNTIMES, specification } from './runtimes.ts';
import {
  FunctionRecords,
  type DeploymentRecord,
  type ExecutionRecord,
  type ExecutionTrigger,
  type FunctionRecord,
  type HeaderPair,
  type PendingRequest,
} from './records.ts';

/** Request headers Appwrite keeps on the Execution model (`FUNCTION_ALLOWLIST_HEADERS_REQUEST`). */
const REQUEST_HEADER_ALLOWLIST = [
  'content-type',
  'agent',
  'content-length',
  'host',
  'x-appwrite-client-ip',
];
/** Response headers Appwrite keeps on a stored execution (`FUNCTION_ALLOWLIST_HEADERS_RESPONSE`). */
const RESPONSE_HEADER_ALLOWLIST = ['content-type', 'content-length'];
/** Appwrite's `APP_FUNCTION_LOG_LENGTH_LIMIT` and `APP_FUNCTION_ERROR_LENGTH_LIMIT`. */
const OUTPUT_LIMIT = 1_000_000;
/** Longest a synchronous execution keeps its caller waiting (Appwrite's executor request timeout). */
export const SYNC_TIMEOUT_MS = 30_000;
/** Longest build commands may run (`_APP_COMPUTE_BUILD_TIMEOUT`). */
const BUILD_TIMEOUT_MS = 900_000;

/** What a caller asks to run. */
export interface ExecutionRequest {
  trigger: ExecutionTrigger;
  method: string;
  /** Path with query string. */
  path: string;
  /** Headers given by the caller (lower-case names). */
  headers: Record<string, string>;
  body: string;
  user: UserRecord | null;
  sessionId: string | null;
  event?: string;
  ip?: string;
  scheduledAt?: string | null;
}

/** The function's answer to one execution. */
export interface ExecutionResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** An execution with the full response (the stored record keeps no body). */
export interface FinishedExecution {
  execution: ExecutionRecord;
  response: ExecutionResponse;
}

function truncate(text: string, kind: 'Logs' | 'Errors'): string {
  if (text.length <= OUTPUT_LIMIT) return text;
  const warning = `[WARNING] ${kind} truncated. The output exceeded ${OUTPUT_LIMIT} characters.\n`;
  return warning + text.slice(-(OUTPUT_LIMIT - warning.length));
}

function readAndRemove(file: string): string {
  try {
    const text = readFileSync(file, 'utf8');
    rmSync(file, { force: true });
    return text;
  } catch {
    return '';
  }
}

function directorySize(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += directorySize(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/**
 * The Functions runtime of the local backend: builds deployments from their archives, runs
 * executions in warm child processes ({@link RuntimePool}), queues asynchronous and scheduled
 * ones, fires event triggers and cron schedules, and publishes execution events.
 */
export class FunctionsStore {
  readonly records: FunctionRecords;
  private readonly backend: Backend;
  private readonly root: string;
  private readonly pools = new Map<string, RuntimePool>();
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Minutes each function's schedule fired at (the last few), so no minute fires twice. */
  private readonly firedMinutes = new Map<string, number[]>();
  private readonly timers: NodeJS.Timeout[] = [];
  private eventFunctions: FunctionRecord[] | null = null;
  private closed = false;
  /** Processes per deployment (`BACKEND_FUNCTIONS_MAX_WORKERS`, default: the cores, at most 4). */
  private readonly maxWorkers: number;

  constructor(backend: Backend) {
    this.backend = backend;
    this.records = new FunctionRecords(backend.store);
    this.root = join(backend.config.dataDir, 'functions');
    for (const dir of ['deployments', 'builds', 'uploads', 'logs'])
      mkdirSync(join(this.root, dir), { recursive: true });
    // More processes than cores adds no throughput (each serves one execution at a time and
    // mostly waits on this backend), and each more costs its start-up and a colder JIT.
    const fallback = Math.min(4, availableParallelism());
    const max = Number(process.env.BACKEND_FUNCTIONS_MAX_WORKERS ?? fallback);
    this.maxWorkers = Number.isInteger(max) && max > 0 ? max : fallback;
  }

  // ── lifecycle ────────────────────────────────────────────────────────────

  /** Resumes work left by a previous run, and starts the scheduler. */
  start(): void {
    for (const deployment of this.records.unfinishedDeployments())
      this.track(this.build(deployment.id));
    for (const { execution } of this.records.executionsInStatus('processing')) {
      this.finish(execution, {
        statusCode: 500,
        logs: execution.logs,
        errors: 'The backend stopped during this execution.',
        duration: execution.duration,
        responseHeaders: [],
      });
    }
    for (const { execution } of this.records.executionsInStatus('waiting'))
      this.queue(execution.id);
    this.scheduleNextTick();
    const poll = setInterval(() => this.runDueScheduled(Date.now()), 5_000);
    poll.unref();
    this.timers.push(poll);
  }

  /** Stops the scheduler and every runtime process. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    for (const pool of this.pools.values()) pool.close();
    this.pools.clear();
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((resolve) => setTimeout(resolve, 1_000)),
    ]);
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.inFlight.add(promise);
    void promise.finally(() => this.inFlight.delete(promise)).catch(() => {});
    return promise;
  }

  /** Forgets cached function lists (call after any function change). */
  private functionsChanged(functionId: string): void {
    this.eventFunctions = null;
    const fn = this.records.getFunction(functionId);
    if (!fn) this.retirePool(functionId);
  }

  private retirePool(functionId: string): void {
    const pool = this.pools.get(functionId);
    if (pool) {
      pool.drain();
      this.pools.delete(functionId);
    }
  }

  // ── functions ────────────────────────────────────────────────────────────

  /** The function `id`, or `function_not_found` (a disabled one too, unless `includeDisabled`). */
  function(id: string, includeDisabled = true): FunctionRecord {
    const fn = this.records.getFunction(id);
    if (!fn || (!includeDisabled && !fn.enabled)) throw new ApiError('function_not_found');
    return fn;
  }

  /** Appwrite's Function model of a function, with its variables. */
  functionModelOf(fn: FunctionRecord): Record<string, unknown> {
    return functionModel(fn, this.records.listVariables(fn.id));
  }

  /** Stores a new function (`function_already_exists`) and prints its URL. */
  createFunction(fn: FunctionRecord): void {
    this.records.insertFunction(fn);
    this.functionsChanged(fn.id);
    this.publishFunction(fn, 'create');
    console.log(`[functions] ${fn.id} created; its URL: ${this.functionUrl(fn.id)}`);
  }

  /** Stores a function's new settings. */
  updateFunction(fn: FunctionRecord): void {
    this.records.saveFunction(fn);
    this.functionsChanged(fn.id);
    this.publishFunction(fn, 'update');
  }

  /** Deletes a function with its deployments (and their files), variables and executions. */
  deleteFunction(fn: FunctionRecord): void {
    const deployments = this.records.listDeployments(fn.id);
    this.records.deleteFunction(fn.id);
    this.functionsChanged(fn.id);
    for (const deployment of deployments) this.removeDeploymentFiles(deployment.id);
    this.publishFunction(fn, 'delete');
  }

  /** Checks that `fn` can run now: a Node runtime and a ready, active deployment. */
  assertRunnable(fn: FunctionRecord): void {
    if (!NODE_RUNTIMES.includes(fn.runtime))
      throw new ApiError(
        'function_runtime_unsupported',
        `Runtime "${fn.runtime}" is not supported`,
      );
    const deployment = fn.deploymentId ? this.records.getDeployment(fn.deploymentId) : null;
    if (!deployment || deployment.functionId !== fn.id)
      throw new ApiError(
        'deployment_not_found',
        'Deployment not found. Create a deployment before trying to execute a function',
      );
    if (deployment.status !== 'ready') throw new ApiError('build_not_ready');
  }

  private publishFunction(fn: FunctionRecord, action: 'create' | 'update' | 'delete'): void {
    this.backend.publish({
      resource: 'function',
      action,
      functionId: fn.id,
      payload: functionModel(fn, []),
    });
  }

  // ── paths ────────────────────────────────────────────────────────────────

  private archivePath(deploymentId: string): string {
    return join(this.root, 'deployments', `${deploymentId}.tar.gz`);
  }

  private uploadDir(deploymentId: string): string {
    return join(this.root, 'uploads', deploymentId);
  }

  private buildDir(deploymentId: string): string {
    return join(this.root, 'builds', deploymentId);
  }

  /** Removes a deployment's archive and build. */
  private removeDeploymentFiles(deploymentId: string): void {
    rmSync(this.archivePath(deploymentId), { force: true });
    rmSync(this.buildDir(deploymentId), { recursive: true, force: true });
    rmSync(this.uploadDir(deploymentId), { recursive: true, force: true });
  }

  /** `http://host:port` of the backend, as functions reach it. */
  get origin(): string {
    const host = this.backend.config.host;
    const reachable = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
    return `http://${reachable}:${this.backend.port}`;
  }

  /** A function's own URL (its "function domain"). */
  functionUrl(functionId: string): string {
    return `${this.origin}/_functions/${functionId}/`;
  }

  // ── deployments ──────────────────────────────────────────────────────────

  private updateLatest(deployment: DeploymentRecord): void {
    const fn = this.records.getFunction(deployment.functionId);
    if (!fn) return;
    const latest = this.records.listDeployments(fn.id).at(-1);
    if (!latest || latest.id !== deployment.id) return;
    fn.latestDeploymentId = deployment.id;
    fn.latestDeploymentCreatedAt = deployment.createdAt;
    fn.latestDeploymentStatus = deployment.status;
    this.records.saveFunction(fn);
  }

  /** Records a new or changed deployment and keeps the function's `latestDeployment*` current. */
  private saveDeployment(deployment: DeploymentRecord): void {
    deployment.updatedAt = now();
    this.records.saveDeployment(deployment);
    this.updateLatest(deployment);
  }

  /** Builds a deployment whose archive is complete: extract, run build commands, activate. */
  async build(deploymentId: string): Promise<void> {
    const deployment = this.records.getDeployment(deploymentId);
    if (!deployment) return;
    const started = Date.now();
    const logs: string[] = [];
    const setStatus = (status: DeploymentRecord['status']) => {
      deployment.status = status;
      this.saveDeployment(deployment);
    };
    setStatus('processing');
    await new Promise((resolve) => setImmediate(resolve));
    setStatus('building');
    const dir = this.buildDir(deployment.id);
    try {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      logs.push('Extracting the code archive…');
      await extract({ file: this.archivePath(deployment.id), cwd: dir, strict: true });
      if (deployment.commands.trim() !== '') {
        logs.push(`Running build commands: ${deployment.commands}`);
        logs.push(await runBuildCommands(deployment.commands, dir));
      }
      deployment.buildSize = directorySize(dir);
      logs.push('Build finished.');
      deployment.buildLogs = logs.join('\n');
      deployment.buildDuration = Math.round((Date.now() - started) / 1000);
      setStatus('ready');
    } catch (error) {
      logs.push(`Build failed: ${(error as Error).message}`);
      console.error(
        `[functions] ${deployment.functionId}: deployment ${deployment.id} failed to build: ${firstLine((error as Error).message)}`,
      );
      deployment.buildLogs = logs.join('\n');
      deployment.buildDuration = Math.round((Date.now() - started) / 1000);
      setStatus('failed');
      return;
    }
    if (deployment.activate) this.activate(deployment);
  }

  /** The deployment `id` of `fn`, or `deployment_not_found`. */
  deployment(fn: FunctionRecord, id: string): DeploymentRecord {
    const deployment = this.records.getDeployment(id);
    if (!deployment || deployment.functionId !== fn.id) throw new ApiError('deployment_not_found');
    return deployment;
  }

  /**
   * Receives a deployment's archive, whole or one chunk of it (`chunk` of `chunks`, from 1, as
   * 5 MiB `Content-Range` uploads send it); once every chunk is in, the deployment is built (and
   * activated when asked). A deployment complete already is answered as it is.
   */
  receiveDeployment(
    fn: FunctionRecord,
    upload: {
      id: string;
      type: string;
      entrypoint: string;
      commands: string;
      activate: boolean;
      size: number;
      chunk: number;
      chunks: number;
      data: Buffer;
    },
  ): DeploymentRecord {
    let deployment = this.records.getDeployment(upload.id);
    if (deployment && deployment.functionId !== fn.id) throw new ApiError('deployment_not_found');
    if (deployment && deployment.chunksUploaded >= deployment.chunksTotal) return deployment;
    const time = now();
    deployment ??= {
      id: upload.id,
      createdAt: time,
      updatedAt: time,
      functionId: fn.id,
      type: upload.type,
      entrypoint: upload.entrypoint,
      commands: upload.commands,
      sourceSize: upload.size,
      buildSize: 0,
      activate: upload.activate,
      status: 'waiting',
      buildLogs: '',
      buildDuration: 0,
      chunksTotal: upload.chunks,
      chunksUploaded: 0,
    };
    if (upload.chunks === 1) {
      writeFileSync(this.archivePath(deployment.id), upload.data);
      deployment.chunksUploaded = 1;
    } else {
      const dir = this.uploadDir(deployment.id);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, String(upload.chunk).padStart(6, '0')), upload.data);
      const parts = readdirSync(dir).sort();
      deployment.chunksUploaded = parts.length;
      if (parts.length >= upload.chunks) {
        writeFileSync(
          this.archivePath(deployment.id),
          Buffer.concat(parts.map((part) => readFileSync(join(dir, part)))),
        );
      }
    }
    this.saveDeployment(deployment);
    if (deployment.chunksUploaded >= deployment.chunksTotal) {
      const id = deployment.id;
      setImmediate(() => void this.build(id));
    }
    return deployment;
  }

  /** Stops a build in progress: `build_already_completed`, or `build_canceled` when it was. */
  cancelDeployment(deployment: DeploymentRecord): DeploymentRecord {
    if (deployment.status === 'ready' || deployment.status === 'failed')
      throw new ApiError('build_already_completed');
    if (deployment.status === 'canceled') throw new ApiError('build_canceled');
    deployment.status = 'canceled';
    this.saveDeployment(deployment);
    return deployment;
  }

  /** Deletes a deployment and its files; an active one leaves its function without one. */
  deleteDeployment(fn: FunctionRecord, deployment: DeploymentRecord): void {
    this.records.deleteDeployment(deployment.id);
    this.removeDeploymentFiles(deployment.id);
    if (fn.deploymentId === deployment.id) {
      this.records.saveFunction({
        ...fn,
        deploymentId: '',
        deploymentCreatedAt: '',
        updatedAt: now(),
      });
      this.functionsChanged(fn.id);
    }
  }

  /** The archive of a deployment, or `deployment_not_found` when it is gone. */
  archive(deployment: DeploymentRecord): Buffer {
    const path = this.archivePath(deployment.id);
    if (!existsSync(path)) throw new ApiError('deployment_not_found');
    return readFileSync(path);
  }

  /** Makes a ready deployment the function's active one. */
  activate(deployment: DeploymentRecord): void {
    const fn = this.records.getFunction(deployment.functionId);
    if (!fn) return;
    fn.deploymentId = deployment.id;
    fn.deploymentCreatedAt = deployment.createdAt;
    fn.updatedAt = now();
    this.records.saveFunction(fn);
    this.functionsChanged(fn.id);
    this.retirePool(fn.id);
  }

  // ── executions ───────────────────────────────────────────────────────────

  private newExecution(fn: FunctionRecord, request: ExecutionRequest): ExecutionRecord {
    const time = now();
    const headers: HeaderPair[] = [];
    const visible = { ...request.headers, 'x-appwrite-client-ip': request.ip ?? '' };
    for (const [name, value] of Object.entries(visible))
      if (REQUEST_HEADER_ALLOWLIST.includes(name.toLowerCase())) headers.push({ name, value });
    return {
      id: uniqueId(),
      createdAt: time,
      updatedAt: time,
      permissions: request.user ? [`read("user:${request.user.id}")`] : [],
      functionId: fn.id,
      deploymentId: fn.deploymentId,
      trigger: request.trigger,
      status: 'waiting',
      requestMethod: request.method,
      requestPath: request.path,
      requestHeaders: headers,
      responseStatusCode: 0,
      responseBody: '',
      responseHeaders: [],
      logs: '',
      errors: '',
      duration: 0,
      scheduledAt: request.scheduledAt ?? null,
    };
  }

  private pendingOf(request: ExecutionRequest): PendingRequest {
    return {
      method: request.method,
      path: request.path,
      headers: {
        ...request.headers,
        ...(request.ip ? { 'x-appwrite-client-ip': request.ip } : {}),
      },
      body: request.body,
      userId: request.user?.id ?? '',
      sessionId: request.sessionId ?? '',
      event: request.event ?? '',
    };
  }

  private publish(execution: ExecutionRecord, action: 'create' | 'update'): void {
    this.backend.publish({
      resource: 'execution',
      action,
      functionId: execution.functionId,
      executionId: execution.id,
      permissions: execution.permissions,
      payload: executionModel(execution),
    });
  }

  /** Deletes a finished execution of `fn`: `execution_not_found`, or `execution_in_progress`. */
  deleteExecution(fn: FunctionRecord, executionId: string): void {
    const execution = this.records.getExecution(executionId);
    if (!execution || execution.functionId !== fn.id) throw new ApiError('execution_not_found');
    if (execution.status === 'waiting' || execution.status === 'processing')
      throw new ApiError('execution_in_progress');
    this.records.deleteExecution(execution.id);
  }

  /** Runs an execution now and waits for it (a synchronous call or a function URL). */
  async runNow(fn: FunctionRecord, request: ExecutionRequest): Promise<FinishedExecution> {
    const execution = this.newExecution(fn, request);
    execution.status = 'processing';
    this.records.saveExecution(execution);
    this.publish(execution, 'create');
    return this.track(this.perform(fn, execution, this.pendingOf(request)));
  }

  /** Stores an asynchronous (or scheduled) execution and queues it; returns it `waiting`/`scheduled`. */
  enqueue(fn: FunctionRecord, request: ExecutionRequest): ExecutionRecord {
    const execution = this.newExecution(fn, request);
    execution.status = request.scheduledAt ? 'scheduled' : 'waiting';
    this.records.saveExecution(execution, this.pendingOf(request));
    this.publish(execution, 'create');
    if (!request.scheduledAt) this.queue(execution.id);
    return execution;
  }

  private queue(executionId: string): void {
    setImmediate(() => {
      if (this.closed) return;
      const entry = this.records.getExecutionWithPending(executionId);
      if (entry?.execution.status === 'waiting') this.startQueued(entry.execution, entry.pending);
    });
  }

  private startQueued(execution: ExecutionRecord, pending: PendingRequest | null): void {
    const fn = this.records.getFunction(execution.functionId);
    if (!fn) return;
    execution.status = 'processing';
    execution.updatedAt = now();
    execution.deploymentId = fn.deploymentId;
    this.records.saveExecution(execution);
    this.publish(execution, 'update');
    this.track(
      this.perform(
        fn,
        execution,
        pending ?? {
          method: execution.requestMethod,
          path: execution.requestPath,
          headers: {},
          body: '',
          userId: '',
          sessionId: '',
          event: '',
        },
      ),
    ).catch((error: unknown) => console.error('[functions] execution failed to run', error));
  }

  private finish(
    execution: ExecutionRecord,
    result: {
      statusCode: number;
      logs: string;
      errors: string;
      duration: number;
      responseHeaders: HeaderPair[];
    },
  ): void {
    execution.status = result.statusCode >= 500 || result.statusCode === 0 ? 'failed' : 'completed';
    execution.responseStatusCode = result.statusCode;
    execution.responseHeaders = result.responseHeaders.filter((header) =>
      RESPONSE_HEADER_ALLOWLIST.includes(header.name.toLowerCase()),
    );
    execution.logs = truncate(result.logs, 'Logs');
    execution.errors = truncate(result.errors, 'Errors');
    execution.duration = result.duration;
    execution.updatedAt = now();
    this.records.saveExecution(execution);
    this.publish(execution, 'update');
    if (execution.status === 'failed') {
      // A function that failed on purpose (a 503 asking to be called again) says why in its log.
      const reason = firstLine(execution.errors) || lastLine(execution.logs);
      console.error(
        `[functions] ${execution.functionId}: execution ${execution.id} failed (${execution.responseStatusCode})${reason ? `: ${reason}` : ''}`,
      );
    }
  }

  /** Runs `execution` in the function's runtime and records the outcome. */
  private async perform(
    fn: FunctionRecord,
    execution: ExecutionRecord,
    pending: PendingRequest,
  ): Promise<FinishedExecution> {
    const started = performance.now();
    const deployment = fn.deploymentId ? this.records.getDeployment(fn.deploymentId) : null;
    if (!deployment || deployment.functionId !== fn.id || deployment.status !== 'ready') {
      const message = !deployment
        ? 'The execution could not be completed because a corresponding deployment was not found. A function deployment needs to be created before it can be executed. Please create a deployment for your function and try again.'
        : 'The execution could not be completed because the build is not ready. Please wait for the build to complete and try again.';
      this.finish(execution, {
        statusCode: 500,
        logs: '',
        errors: message,
        duration: 0,
        responseHeaders: [],
      });
      return { execution, response: { statusCode: 500, headers: {}, body: Buffer.alloc(0) } };
    }
    const user = pending.userId ? this.backend.auth.users.get(pending.userId) : null;
    const lifetime = (fn.timeout + 60) * 1000;
    const headers: Record<string, string> = {
      ...pending.headers,
      host: new URL(this.origin).host,
      'x-appwrite-execution-id': execution.id,
      'x-appwrite-key': this.backend.auth.keys.createDynamic(fn.scopes, lifetime),
      'x-appwrite-trigger': execution.trigger,
      'x-appwrite-event': pending.event,
      'x-appwrite-user-id': user?.id ?? '',
      'x-appwrite-user-jwt': user
        ? this.backend.auth.sessions.createJwt(user.id, pending.sessionId, lifetime)
        : '',
      'x-appwrite-country-code': '',
      'x-appwrite-continent-code': '',
      'x-appwrite-continent-eu': 'false',
    };
    if (execution.trigger !== 'event') delete headers['x-appwrite-event'];
    const spec = specification(fn.runtimeSpecification);
    const memoryMb = memoryLimit(spec.memory);
    const env = this.environment(fn, deployment, spec.memory, spec.cpus);
    const pool = this.poolFor(fn, deployment, env, memoryMb);
    const logFile = join(this.root, 'logs', `${execution.id}_logs.log`);
    const errorFile = join(this.root, 'logs', `${execution.id}_errors.log`);
    const outcome: WorkerOutcome = await pool.execute(
      {
        type: 'execute',
        id: execution.id,
        method: pending.method,
        url: pending.path,
        headers,
        body: Buffer.from(pending.body, 'utf8'),
        timeout: fn.timeout,
        logging: fn.logging,
        logFile,
        errorFile,
      },
      fn.timeout * 1000 + 1_000,
    );
    // A runtime that answered says which files it wrote; otherwise both may exist.
    const logged = outcome.kind === 'result' ? outcome.response.logged : undefined;
    const logs = logged?.logs === false ? '' : readAndRemove(logFile);
    let errors = logged?.errors === false ? '' : readAndRemove(errorFile);
    let response: ExecutionResponse;
    if (outcome.kind === 'result') {
      response = {
        statusCode: outcome.response.statusCode,
        headers: outcome.response.headers,
        body: Buffer.from(outcome.response.body),
      };
    } else {
      const reason =
        outcome.kind === 'timeout'
          ? 'Execution timed out.'
          : outcome.outOfMemory
            ? `Execution failed: the function ran out of memory (limit ${memoryMb} MB).`
            : `Execution failed: ${outcome.reason}`;
      errors = `${errors}${errors && !errors.endsWith('\n') ? '\n' : ''}${reason}\n`;
      response = { statusCode: 500, headers: {}, body: Buffer.alloc(0) };
    }
    const duration = (performance.now() - started) / 1000;
    const responseHeaders = Object.entries(response.headers).map(([name, value]) => ({
      name,
      value,
    }));
    this.finish(execution, {
      statusCode: response.statusCode,
      logs: fn.logging ? logs : '',
      errors: fn.logging || outcome.kind !== 'result' ? errors : '',
      duration,
      responseHeaders,
    });
    return { execution, response };
  }

  private environment(
    fn: FunctionRecord,
    deployment: DeploymentRecord,
    memory: number,
    cpus: number,
  ): Record<string, string> {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      HOME: this.buildDir(deployment.id),
      OPEN_RUNTIMES_ENTRYPOINT: deployment.entrypoint,
      OPEN_RUNTIMES_ENV: 'production',
    };
    for (const variable of this.records.listVariables(fn.id)) env[variable.key] = variable.value;
    Object.assign(env, {
      APPWRITE_FUNCTION_API_ENDPOINT: `${this.origin}/v1`,
      APPWRITE_FUNCTION_ID: fn.id,
      APPWRITE_FUNCTION_NAME: fn.name,
      APPWRITE_FUNCTION_DEPLOYMENT: deployment.id,
      APPWRITE_FUNCTION_PROJECT_ID: this.backend.config.projectId,
      APPWRITE_FUNCTION_RUNTIME_NAME: 'Node.js',
      APPWRITE_FUNCTION_RUNTIME_VERSION: fn.runtime.slice('node-'.length),
      APPWRITE_FUNCTION_CPUS: String(cpus),
      APPWRITE_FUNCTION_MEMORY: String(memory),
      APPWRITE_VERSION,
      APPWRITE_REGION: 'default',
      APPWRITE_DEPLOYMENT_TYPE: deployment.type,
      APPWRITE_VCS_REPOSITORY_ID: '',
      APPWRITE_VCS_REPOSITORY_NAME: '',
      APPWRITE_VCS_REPOSITORY_OWNER: '',
      APPWRITE_VCS_REPOSITORY_URL: '',
      APPWRITE_VCS_REPOSITORY_BRANCH: '',
      APPWRITE_VCS_REPOSITORY_BRANCH_URL: '',
      APPWRITE_VCS_COMMIT_HASH: '',
      APPWRITE_VCS_COMMIT_MESSAGE: '',
      APPWRITE_VCS_COMMIT_URL: '',
      APPWRITE_VCS_COMMIT_AUTHOR_NAME: '',
      APPWRITE_VCS_COMMIT_AUTHOR_URL: '',
      APPWRITE_VCS_ROOT_DIRECTORY: '',
    });
    return env;
  }

  private poolFor(
    fn: FunctionRecord,
    deployment: DeploymentRecord,
    env: Record<string, string>,
    memoryMb: number,
  ): RuntimePool {
    const key = createHash('sha256')
      .update(JSON.stringify([deployment.id, deployment.entrypoint, env, memoryMb]))
      .digest('hex');
    const existing = this.pools.get(fn.id);
    if (existing?.key === key) return existing;
    existing?.drain();
    const pool = new RuntimePool(
      key,
      { codeDir: this.buildDir(deployment.id), entrypoint: deployment.entrypoint, env, memoryMb },
      this.maxWorkers,
    );
    this.pools.set(fn.id, pool);
    return pool;
  }

  // ── triggers ─────────────────────────────────────────────────────────────

  /** Starts one `event` execution for every function listening to one of `event.events`. */
  onEvent(event: BackendEvent): void {
    if (this.closed) return;
    this.eventFunctions ??= this.records.listFunctions().filter((fn) => fn.events.length > 0);
    const matching = this.eventFunctions.filter(
      (fn) => fn.deploymentId && fn.events.some((name) => event.events.includes(name)),
    );
    if (matching.length === 0) return;
    const body = JSON.stringify(event.payload);
    setImmediate(() => {
      for (const candidate of matching) {
        const fn = this.records.getFunction(candidate.id);
        if (!fn) continue;
        this.enqueue(fn, {
          trigger: 'event',
          method: 'POST',
          path: '/',
          headers: {
            'user-agent': `Appwrite/${APPWRITE_VERSION}`,
            'content-type': 'application/json',
          },
          body,
          user: null,
          sessionId: null,
          event: event.events[0] ?? '',
        });
      }
    });
  }

  private scheduleNextTick(): void {
    if (this.closed) return;
    const delay = 60_000 - (Date.now() % 60_000) + 50;
    const timer = setTimeout(() => {
      this.timers.splice(this.timers.indexOf(timer), 1);
      this.tick(Date.now());
      this.scheduleNextTick();
    }, delay);
    timer.unref();
    this.timers.push(timer);
  }

  /**
   * The scheduler at time `at`: starts a `schedule` execution of every deployed function whose
   * cron expression matches that UTC minute (once per function and minute), and runs scheduled
   * executions that are due. Returns the executions it started.
   */
  tick(at: number): ExecutionRecord[] {
    const started: ExecutionRecord[] = [];
    const minute = Math.floor(at / 60_000);
    for (const fn of this.records.listFunctions()) {
      if (!fn.schedule || !fn.deploymentId) continue;
      let schedule;
      try {
        schedule = parseCron(fn.schedule);
      } catch {
        continue;
      }
      const fired = this.firedMinutes.get(fn.id) ?? [];
      if (!cronMatches(schedule, at) || fired.includes(minute)) continue;
      this.firedMinutes.set(fn.id, [...fired.slice(-9), minute]);
      started.push(
        this.enqueue(fn, {
          trigger: 'schedule',
          method: 'POST',
          path: '/',
          headers: {},
          body: '',
          user: null,
          sessionId: null,
        }),
      );
    }
    started.push(...this.runDueScheduled(at));
    return started;
  }

  private runDueScheduled(at: number): ExecutionRecord[] {
    if (this.closed) return [];
    const due = this.records.executionsInStatus('scheduled', formatDate(at));
    for (const { execution, pending } of due) {
      execution.status = 'waiting';
      this.records.saveExecution(execution, pending);
      this.startQueued(execution, pending);
    }
    return due.map((entry) => entry.execution);
  }
}

/** The first non-empty line of `text`, cut to 300 characters (for one-line log entries). */
function firstLine(text: string): string {
  return clipped(text.split('\n').find((candidate) => candidate.trim() !== '') ?? '');
}

function lastLine(text: string): string {
  return clipped(text.split('\n').findLast((candidate) => candidate.trim() !== '') ?? '');
}

function clipped(line: string): string {
  return line.length > 300 ? `${line.slice(0, 300)}…` : line.trim();
}

/** The heap limit of a runtime: the specification's, capped by `BACKEND_FUNCTIONS_MEMORY_MB`. */
function memoryLimit(specMb: number): number {
  const cap = Number(process.env.BACKEND_FUNCTIONS_MEMORY_MB ?? 0);
  return Number.isFinite(cap) && cap > 0 ? Math.min(cap, specMb) : specMb;
}

function runBuildCommands(commands: string, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', commands], {
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: cwd },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-100_000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), BUILD_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`build commands exited with ${signal ?? `code ${code}`}\n${output}`));
    });
  });
}
