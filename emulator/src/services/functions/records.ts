import type { Store } from '../../core/db.ts';
import { ApiError } from '../../core/errors.ts';

/** A stored function. */
export interface FunctionRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  name: string;
  runtime: string;
  execute: string[];
  events: string[];
  schedule: string;
  timeout: number;
  enabled: boolean;
  logging: boolean;
  entrypoint: string;
  commands: string;
  scopes: string[];
  deploymentId: string;
  deploymentCreatedAt: string;
  latestDeploymentId: string;
  latestDeploymentCreatedAt: string;
  latestDeploymentStatus: string;
  buildSpecification: string;
  runtimeSpecification: string;
  deploymentRetention: number;
}

/** Build status of a deployment, as Appwrite reports it. */
export type DeploymentStatus =
  'waiting' | 'processing' | 'building' | 'ready' | 'canceled' | 'failed';

/** A stored deployment (its archive and build live under the data folder). */
export interface DeploymentRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  functionId: string;
  type: string;
  entrypoint: string;
  commands: string;
  sourceSize: number;
  buildSize: number;
  activate: boolean;
  status: DeploymentStatus;
  buildLogs: string;
  buildDuration: number;
  chunksTotal: number;
  chunksUploaded: number;
}

/** A stored function variable. */
export interface VariableRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  functionId: string;
  key: string;
  value: string;
  secret: boolean;
}

/** Execution trigger and status values. */
export type ExecutionTrigger = 'http' | 'schedule' | 'event';
export type ExecutionStatus = 'waiting' | 'processing' | 'completed' | 'failed' | 'scheduled';

/** A `{name, value}` header as the Execution model lists them. */
export interface HeaderPair {
  name: string;
  value: string;
}

/** A stored execution. */
export interface ExecutionRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  /** Formatted permissions, e.g. `read("user:abc")`. */
  permissions: string[];
  functionId: string;
  deploymentId: string;
  trigger: ExecutionTrigger;
  status: ExecutionStatus;
  requestMethod: string;
  requestPath: string;
  requestHeaders: HeaderPair[];
  responseStatusCode: number;
  responseBody: string;
  responseHeaders: HeaderPair[];
  logs: string;
  errors: string;
  duration: number;
  scheduledAt: string | null;
}

/** What a queued (`waiting`) or `scheduled` execution still needs in order to run. */
export interface PendingRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  userId: string;
  /** The session the caller used, so the function gets a JWT for it. */
  sessionId: string;
  event: string;
}

type Row = { data: string; pending?: string | null };

/** SQLite storage of functions, deployments, variables and executions. */
export class FunctionRecords {
  private readonly store: Store;

  constructor(store: Store) {
    this.store = store;
    store.sql.exec(`
      CREATE TABLE IF NOT EXISTS functions (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, data TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS function_deployments (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, function_id TEXT NOT NULL,
        data TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS function_deployments_function ON function_deployments (function_id);
      CREATE TABLE IF NOT EXISTS function_variables (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, function_id TEXT NOT NULL,
        key TEXT NOT NULL, data TEXT NOT NULL,
        UNIQUE (function_id, id), UNIQUE (function_id, key));
      CREATE TABLE IF NOT EXISTS function_executions (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, function_id TEXT NOT NULL,
        status TEXT NOT NULL, scheduled_at TEXT, data TEXT NOT NULL, pending TEXT);
      CREATE INDEX IF NOT EXISTS function_executions_function ON function_executions (function_id, seq);
      CREATE INDEX IF NOT EXISTS function_executions_status ON function_executions (status, scheduled_at);
    `);
  }

  // ── functions ────────────────────────────────────────────────────────────

  getFunction(id: string): FunctionRecord | null {
    const row = this.store.prepare('SELECT data FROM functions WHERE id = ?').get(id) as
      Row | undefined;
    return row ? (JSON.parse(row.data) as FunctionRecord) : null;
  }

  listFunctions(): FunctionRecord[] {
    const rows = this.store.prepare('SELECT data FROM functions ORDER BY seq').all() as Row[];
    return rows.map((row) => JSON.parse(row.data) as FunctionRecord);
  }

  insertFunction(fn: FunctionRecord): void {
    try {
      this.store
        .prepare('INSERT INTO functions (id, data) VALUES (?, ?)')
        .run(fn.id, JSON.stringify(fn));
    } catch (error) {
      if (String(error).includes('UNIQUE')) throw new ApiError('function_already_exists');
      throw error;
    }
  }

  saveFunction(fn: FunctionRecord): void {
    this.store.prepare('UPDATE functions SET data = ? WHERE id = ?').run(JSON.stringify(fn), fn.id);
  }

  deleteFunction(id: string): void {
    this.store.transaction(() => {
      this.store.prepare('DELETE FROM functions WHERE id = ?').run(id);
      this.store.prepare('DELETE FROM function_deployments WHERE function_id = ?').run(id);
      this.store.prepare('DELETE FROM function_variables WHERE function_id = ?').run(id);
      this.store.prepare('DELETE FROM function_executions WHERE function_id = ?').run(id);
    });
  }

  // ── deployments ──────────────────────────────────────────────────────────

  getDeployment(id: string): DeploymentRecord | null {
    const row = this.store.prepare('SELECT data FROM function_deployments WHERE id = ?').get(id) as
      Row | undefined;
    return row ? (JSON.parse(row.data) as DeploymentRecord) : null;
  }

  listDeployments(functionId: string): DeploymentRecord[] {
    const rows = this.store
      .prepare('SELECT data FROM function_deployments WHERE function_id = ? ORDER BY seq')
      .all(functionId) as Row[];
    return rows.map((row) => JSON.parse(row.data) as DeploymentRecord);
  }

  /** Every deployment still `waiting`, `processing` or `building` (to resume after a restart). */
  unfinishedDeployments(): DeploymentRecord[] {
    const rows = this.store
      .prepare('SELECT data FROM function_deployments ORDER BY seq')
      .all() as Row[];
    return rows
      .map((row) => JSON.parse(row.data) as DeploymentRecord)
      .filter(
        (d) => d.status === 'waiting' || d.status === 'processing' || d.status === 'building',
      );
  }

  saveDeployment(deployment: DeploymentRecord): void {
    this.store
      .prepare(
        `INSERT INTO function_deployments (id, function_id, data) VALUES (?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET data = excluded.data`,
      )
      .run(deployment.id, deployment.functionId, JSON.stringify(deployment));
  }

  deleteDeployment(id: string): void {
    this.store.prepare('DELETE FROM function_deployments WHERE id = ?').run(id);
  }

  // ── variables ────────────────────────────────────────────────────────────

  listVariables(functionId: string): VariableRecord[] {
    const rows = this.store
      .prepare('SELECT data FROM function_variables WHERE function_id = ? ORDER BY seq')
      .all(functionId) as Row[];
    return rows.map((row) => JSON.parse(row.data) as VariableRecord);
  }

  getVariable(functionId: string, id: string): VariableRecord | null {
    const row = this.store
      .prepare('SELECT data FROM function_variables WHERE function_id = ? AND id = ?')
      .get(functionId, id) as Row | undefined;
    return row ? (JSON.parse(row.data) as VariableRecord) : null;
  }

  /** Inserts or updates a variable; a key taken by another variable is `variable_already_exists`. */
  saveVariable(variable: VariableRecord, isNew: boolean): void {
    try {
      if (isNew) {
        this.store
          .prepare(
            'INSERT INTO function_variables (id, function_id, key, data) VALUES (?, ?, ?, ?)',
          )
          .run(variable.id, variable.functionId, variable.key, JSON.stringify(variable));
      } else {
        this.store
          .prepare(
            'UPDATE function_variables SET key = ?, data = ? WHERE function_id = ? AND id = ?',
          )
          .run(variable.key, JSON.stringify(variable), variable.functionId, variable.id);
      }
    } catch (error) {
      if (String(error).includes('UNIQUE')) throw new ApiError('variable_already_exists');
      throw error;
    }
  }

  deleteVariable(functionId: string, id: string): void {
    this.store
      .prepare('DELETE FROM function_variables WHERE function_id = ? AND id = ?')
      .run(functionId, id);
  }

  // ── executions ───────────────────────────────────────────────────────────

  getExecution(id: string): ExecutionRecord | null {
    const row = this.store.prepare('SELECT data FROM function_executions WHERE id = ?').get(id) as
      Row | undefined;
    return row ? (JSON.parse(row.data) as ExecutionRecord) : null;
  }

  /** Executions of a function in creation order. */
  listExecutions(functionId: string): ExecutionRecord[] {
    const rows = this.store
      .prepare('SELECT data FROM function_executions WHERE function_id = ? ORDER BY seq')
      .all(functionId) as Row[];
    return rows.map((row) => JSON.parse(row.data) as ExecutionRecord);
  }

  /** Saves an execution; `pending` keeps what a queued one needs to run (null clears it). */
  saveExecution(execution: ExecutionRecord, pending: PendingRequest | null = null): void {
    // In a transaction, so that it joins the backend's group commit.
    this.store.transaction(() =>
      this.store
        .prepare(
          `INSERT INTO function_executions (id, function_id, status, scheduled_at, data, pending)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET status = excluded.status,
           scheduled_at = excluded.scheduled_at, data = excluded.data, pending = excluded.pending`,
        )
        .run(
          execution.id,
          execution.functionId,
          execution.status,
          execution.scheduledAt,
          JSON.stringify(execution),
          pending ? JSON.stringify(pending) : null,
        ),
    );
  }

  /** One execution with the request it still has to run (null once it ran). */
  getExecutionWithPending(
    id: string,
  ): { execution: ExecutionRecord; pending: PendingRequest | null } | null {
    const row = this.store
      .prepare('SELECT data, pending FROM function_executions WHERE id = ?')
      .get(id) as Row | undefined;
    if (!row) return null;
    return {
      execution: JSON.parse(row.data) as ExecutionRecord,
      pending: row.pending ? (JSON.parse(row.pending) as PendingRequest) : null,
    };
  }

  /** Executions in `status` (with their pending request), oldest first; `dueBy` limits scheduled ones. */
  executionsInStatus(
    status: ExecutionStatus,
    dueBy?: string,
  ): { execution: ExecutionRecord; pending: PendingRequest | null }[] {
    const rows = (
      dueBy === undefined
        ? this.store
            .prepare('SELECT data, pending FROM function_executions WHERE status = ? ORDER BY seq')
            .all(status)
        : this.store
            .prepare(
              'SELECT data, pending FROM function_executions WHERE status = ? AND scheduled_at <= ? ORDER BY seq',
            )
            .all(status, dueBy)
    ) as Row[];
    return rows.map((row) => ({
      execution: JSON.parse(row.data) as ExecutionRecord,
      pending: row.pending ? (JSON.parse(row.pending) as PendingRequest) : null,
    }));
  }

  deleteExecution(id: string): void {
    this.store.prepare('DELETE FROM function_executions WHERE id = ?').run(id);
  }
}
