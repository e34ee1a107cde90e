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
import type { UserRecord } from '../../core/auth.ts';
import { generateEvents, type BackendEvent } from '../../core/events.ts';
import { uniqueId } from '../../core/ids.ts';
import { formatDate, now } from '../../core/time.ts';
import { APPWRITE_VERSION } from '../../http/errors.ts';
import { cronMatches, parseCron } from './cron.ts';
import { executionModel } from './models.ts';
import { RuntimePool, type WorkerOutcome } from './pool.ts';
import { specification } from './runtimes.ts';
import {
  functionsStoreOf,
  type DeploymentRecord,
  type ExecutionRecord,
  type ExecutionTrigger,
  type FunctionRecord,
  type FunctionsStore,
  type HeaderPair,
  type PendingRequest,
} from './store.ts';

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

function readRoles(permissions: readonly string[]): string[] {
  const roles: string[] = [];
  for (const permission of permissions) {
    const match = /^read\("(.+)"\)$/.exec(permission);
    if (match) roles.push(match[1]!);
  }
  return roles;
}

/**
 * The Functions runtime of the local backend: builds deployments from their archives, runs
 * executions in warm child processes ({@link RuntimePool}), queues asynchronous and scheduled
 * ones, fires event triggers and cron schedules, and publishes execution events.
 */
export class FunctionsService {
  readonly store: FunctionsStore;
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
    this.store = functionsStoreOf(backend);
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
    for (const deployment of this.store.unfinishedDeployments())
      this.track(this.build(deployment.id));
    for (const { execution } of this.store.executionsInStatus('processing')) {
      this.finish(execution, {
        statusCode: 500,
        logs: execution.logs,
        errors: 'The backend stopped during this execution.',
        duration: execution.duration,
        responseHeaders: [],
      });
    }
    for (const { execution } of this.store.executionsInStatus('waiting')) this.queue(execution.id);
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
  functionsChanged(functionId: string): void {
    this.eventFunctions = null;
    const fn = this.store.getFunction(functionId);
    if (!fn) this.retirePool(functionId);
  }

  private retirePool(functionId: string): void {
    const pool = this.pools.get(functionId);
    if (pool) {
      pool.drain();
      this.pools.delete(functionId);
    }
  }

  // ── paths ────────────────────────────────────────────────────────────────

  archivePath(deploymentId: string): string {
    return join(this.root, 'deployments', `${deploymentId}.tar.gz`);
  }

  uploadDir(deploymentId: string): string {
    return join(this.root, 'uploads', deploymentId);
  }

  private buildDir(deploymentId: string): string {
    return join(this.root, 'builds', deploymentId);
  }

  /** Removes a deployment's archive and build. */
  removeDeploymentFiles(deploymentId: string): void {
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
    const fn = this.store.getFunction(deployment.functionId);
    if (!fn) return;
    const latest = this.store.listDeployments(fn.id).at(-1);
    if (!latest || latest.id !== deployment.id) return;
    fn.latestDeploymentId = deployment.id;
    fn.latestDeploymentCreatedAt = deployment.createdAt;
    fn.latestDeploymentStatus = deployment.status;
    this.store.saveFunction(fn);
  }

  /** Records a new or changed deployment and keeps the function's `latestDeployment*` current. */
  saveDeployment(deployment: DeploymentRecord): void {
    deployment.updatedAt = now();
    this.store.saveDeployment(deployment);
    this.updateLatest(deployment);
  }

  /** Builds a deployment whose archive is complete: extract, run build commands, activate. */
  async build(deploymentId: string): Promise<void> {
    const deployment = this.store.getDeployment(deploymentId);
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

  /** Makes a ready deployment the function's active one. */
  activate(deployment: DeploymentRecord): void {
    const fn = this.store.getFunction(deployment.functionId);
    if (!fn) return;
    fn.deploymentId = deployment.id;
    fn.deploymentCreatedAt = deployment.createdAt;
    fn.updatedAt = now();
    this.store.saveFunction(fn);
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
    const channels = [
      'executions',
      `executions.${execution.id}`,
      `functions.${execution.functionId}`,
    ];
    this.backend.bus.publish({
      events: generateEvents(`functions.[functionId].executions.[executionId].${action}`, {
        functionId: execution.functionId,
        executionId: execution.id,
      }),
      channels: [...channels, ...channels.map((channel) => `${channel}.${action}`)],
      roles: readRoles(execution.permissions),
      payload: executionModel(execution),
    });
  }

  /** Runs an execution now and waits for it (a synchronous call or a function URL). */
  async runNow(fn: FunctionRecord, request: ExecutionRequest): Promise<FinishedExecution> {
    const execution = this.newExecution(fn, request);
    execution.status = 'processing';
    this.store.saveExecution(execution);
    this.publish(execution, 'create');
    return this.track(this.perform(fn, execution, this.pendingOf(request)));
  }

  /** Stores an asynchronous (or scheduled) execution and queues it; returns it `waiting`/`scheduled`. */
  enqueue(fn: FunctionRecord, request: ExecutionRequest): ExecutionRecord {
    const execution = this.newExecution(fn, request);
    execution.status = request.scheduledAt ? 'scheduled' : 'waiting';
    this.store.saveExecution(execution, this.pendingOf(request));
    this.publish(execution, 'create');
    if (!request.scheduledAt) this.queue(execution.id);
    return execution;
  }

  private queue(executionId: string): void {
    setImmediate(() => {
      if (this.closed) return;
      const entry = this.store.getExecutionWithPending(executionId);
      if (entry?.execution.status === 'waiting') this.startQueued(entry.execution, entry.pending);
    });
  }

  private startQueued(execution: ExecutionRecord, pending: PendingRequest | null): void {
    const fn = this.store.getFunction(execution.functionId);
    if (!fn) return;
    execution.status = 'processing';
    execution.updatedAt = now();
    execution.deploymentId = fn.deploymentId;
    this.store.saveExecution(execution);
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
    this.store.saveExecution(execution);
    this.publish(execution, 'update');
    if (execution.status === 'failed') {
      const reason = firstLine(execution.errors);
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
    const deployment = fn.deploymentId ? this.store.getDeployment(fn.deploymentId) : null;
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
    const user = pending.userId ? this.backend.auth.getUser(pending.userId) : null;
    const lifetime = (fn.timeout + 60) * 1000;
    const headers: Record<string, string> = {
      ...pending.headers,
      host: new URL(this.origin).host,
      'x-appwrite-execution-id': execution.id,
      'x-appwrite-key': this.backend.auth.createDynamicKey(fn.scopes, lifetime),
      'x-appwrite-trigger': execution.trigger,
      'x-appwrite-event': pending.event,
      'x-appwrite-user-id': user?.id ?? '',
      'x-appwrite-user-jwt': user
        ? this.backend.auth.createJwt(user.id, pending.sessionId, lifetime)
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
    for (const variable of this.store.listVariables(fn.id)) env[variable.key] = variable.value;
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
    this.eventFunctions ??= this.store.listFunctions().filter((fn) => fn.events.length > 0);
    const matching = this.eventFunctions.filter(
      (fn) => fn.deploymentId && fn.events.some((name) => event.events.includes(name)),
    );
    if (matching.length === 0) return;
    const body = JSON.stringify(event.payload);
    setImmediate(() => {
      for (const candidate of matching) {
        const fn = this.store.getFunction(candidate.id);
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
    for (const fn of this.store.listFunctions()) {
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
    const due = this.store.executionsInStatus('scheduled', formatDate(at));
    for (const { execution, pending } of due) {
      execution.status = 'waiting';
      this.store.saveExecution(execution, pending);
      this.startQueued(execution, pending);
    }
    return due.map((entry) => entry.execution);
  }
}

/** The first non-empty line of `text`, cut to 300 characters (for one-line log entries). */
function firstLine(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
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

/** Writes `data` as a deployment's complete archive. */
export function writeArchive(service: FunctionsService, deploymentId: string, data: Buffer): void {
  writeFileSync(service.archivePath(deploymentId), data);
}

/** Whether a deployment's archive exists. */
export function hasArchive(service: FunctionsService, deploymentId: string): boolean {
  return existsSync(service.archivePath(deploymentId));
}

/** The shared {@link FunctionsService} of a backend. */
export function functionsOf(backend: Backend): FunctionsService {
  let service = backend.services.get('functions') as FunctionsService | undefined;
  if (!service) {
    service = new FunctionsService(backend);
    backend.services.set('functions', service);
  }
  return service;
}
