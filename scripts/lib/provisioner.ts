import type { DatabasesIndexType, OrderBy, ProjectKeyScopes, Runtime } from 'node-appwrite';
import {
  AppwriteException,
  Databases,
  Functions,
  ID,
  Query,
  Storage,
  Teams,
  type Client,
  type Models,
} from 'node-appwrite';
import { InputFile } from 'node-appwrite/file';
import type {
  AttributeSpec,
  BackfillSpec,
  BucketSpec,
  CollectionSpec,
  FunctionSpec,
  IndexSpec,
  SchemaSpec,
} from '../schema.ts';
import { createHash } from 'node:crypto';
import { bundleFunction, FUNCTION_ENTRYPOINT, FUNCTIONS_DIR } from './function-bundle.ts';
import {
  ensureWebhookEndpoint,
  resolveStripeProvisioning,
  STRIPE_VARIABLES,
  type StripeResolution,
} from './stripe-provisioning.ts';

/** What a provisioning run changed, one line per change (`+` created, `~` updated, `-` removed). */
export interface ProvisionReport {
  changes: string[];
}

type AnyAttribute = Models.AttributeList['attributes'][number] & {
  key: string;
  type: string;
  required: boolean;
  status: string;
  error: string;
  default?: unknown;
  size?: number;
  min?: number | bigint;
  max?: number | bigint;
  elements?: string[];
  format?: string;
};

/**
 * The function variable holding the hash of the code its active deployment runs (so that an
 * unchanged function is not deployed again).
 */
export const CODE_HASH_VARIABLE = 'LIVEDESK_CODE_HASH';

/**
 * The plain variable holding the sha256 of a secret variable's value (`<KEY>_SHA256`): a secret
 * cannot be read back, so this is how provisioning knows whether it changed.
 */
export function secretHashVariable(key: string): string {
  return `${key}_SHA256`;
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** What a function's variables should be: plain ones, secret ones, and managed ones to remove. */
interface WantedVariables {
  plain: Record<string, string>;
  secrets: Record<string, string>;
  /** Managed keys this run does not set (left over from another Stripe mode): removed. */
  managed: readonly string[];
}

/** Appwrite reports an unset integer bound as ±2^63; anything beyond ±2^62 counts as unset. */
const UNBOUNDED = 2 ** 62;

/** Documents a backfill reads and updates at once. */
const BACKFILL_PAGE = 100;
/** A backfill says how far it is every this many documents. */
const BACKFILL_PROGRESS_EVERY = 10_000;

function isNotFound(error: unknown): boolean {
  return error instanceof AppwriteException && error.code === 404;
}

async function getOrNull<T>(call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item) => b.includes(item));
}

function expectedType(spec: AttributeSpec): { type: string; format?: string } {
  if (spec.type === 'email') return { type: 'string', format: 'email' };
  if (spec.type === 'enum') return { type: 'string', format: 'enum' };
  if (spec.type === 'integer' || spec.type === 'float')
    return { type: spec.type === 'integer' ? 'integer' : 'double' };
  return { type: spec.type };
}

function typeMatches(spec: AttributeSpec, actual: AnyAttribute): boolean {
  const expected = expectedType(spec);
  const actualType = actual.type === 'float' ? 'double' : actual.type;
  if (expected.type !== actualType) return false;
  if (expected.format && actual.format !== expected.format) return false;
  return true;
}

/** Differences between an attribute's spec and what the backend has (empty when equal). */
export function attributeDifferences(spec: AttributeSpec, actual: AnyAttribute): string[] {
  const diffs: string[] = [];
  if (spec.required !== actual.required) diffs.push('required');
  const wantedDefault = spec.default ?? null;
  if ((actual.default ?? null) !== wantedDefault) diffs.push('default');
  if (spec.type === 'string' && actual.size !== spec.size) diffs.push('size');
  if (spec.type === 'enum' && !sameSet(spec.elements, actual.elements ?? []))
    diffs.push('elements');
  if (spec.type === 'integer' || spec.type === 'float') {
    const bound = (value: number | bigint | undefined) => {
      const number = value === undefined ? null : Number(value);
      return number === null || Math.abs(number) >= UNBOUNDED ? null : number;
    };
    if (bound(actual.min) !== (spec.min ?? null)) diffs.push('min');
    if (bound(actual.max) !== (spec.max ?? null)) diffs.push('max');
  }
  return diffs;
}

/**
 * Applies a {@link SchemaSpec} to any Appwrite through `node-appwrite`: creates what is missing,
 * updates what differs, and reports every change. A second run changes nothing.
 */
export class Provisioner {
  private readonly databases: Databases;
  private readonly storage: Storage;
  private readonly teams: Teams;
  private readonly functions: Functions;
  private readonly functionsDir: string;
  private readonly changes: string[] = [];
  private readonly log: (line: string) => void;
  private readonly progress: (line: string) => void;
  private readonly client: Client;
  private readonly env: Readonly<Record<string, string | undefined>>;
  private stripeResolution: Promise<StripeResolution> | null;

  /**
   * `options.env`: where the Stripe settings are read (`process.env` by default);
   * `options.stripe`: the Stripe settings themselves instead (scripts/lib/stripe-provisioning.ts);
   * `options.progress`: where long work says how far it is (`log` by default).
   */
  constructor(
    client: Client,
    log: (line: string) => void = () => {},
    options: {
      functionsDir?: string;
      env?: Readonly<Record<string, string | undefined>>;
      stripe?: StripeResolution;
      progress?: (line: string) => void;
    } = {},
  ) {
    this.client = client;
    this.databases = new Databases(client);
    this.storage = new Storage(client);
    this.teams = new Teams(client);
    this.functions = new Functions(client);
    this.functionsDir = options.functionsDir ?? FUNCTIONS_DIR;
    this.env = options.env ?? process.env;
    this.stripeResolution = options.stripe ? Promise.resolve(options.stripe) : null;
    this.log = log;
    this.progress = options.progress ?? log;
  }

  /** How the functions reach Stripe, resolved once (on the first function that needs it). */
  private stripe(): Promise<StripeResolution> {
    this.stripeResolution ??= resolveStripeProvisioning(this.env, this.client.config.endpoint).then(
      (resolution) => {
        this.log(
          'unavailable' in resolution
            ? `  ! Stripe is not configured (${resolution.unavailable}): checkout, stripe-webhook and refunds will answer SERVER_ERROR`
            : `  Stripe: ${resolution.mode === 'local' ? `the local double at ${resolution.variables.STRIPE_API_URL}` : 'Stripe (test mode)'}; webhook ${resolution.webhookUrl ?? 'set up by hand (STRIPE_WEBHOOK_SECRET)'}`,
        );
        return resolution;
      },
    );
    return this.stripeResolution;
  }

  /**
   * The variables a function should have: its own, and for a function that talks to Stripe
   * the settings of {@link stripe} — for `stripe-webhook` also the secret of its webhook endpoint,
   * registered here for the function's URL.
   */
  private async wantedVariables(
    spec: FunctionSpec,
    variables: readonly Models.Variable[],
  ): Promise<WantedVariables> {
    const wanted: WantedVariables = { plain: { ...spec.variables }, secrets: {}, managed: [] };
    if (!spec.stripe) return wanted;
    wanted.managed = STRIPE_VARIABLES;
    const stripe = await this.stripe();
    if ('unavailable' in stripe) {
      wanted.managed = [];
      return wanted;
    }
    Object.assign(wanted.plain, stripe.variables);
    Object.assign(wanted.secrets, stripe.secrets);
    if (spec.stripe !== 'webhook') return wanted;
    if (stripe.webhookUrl === null) {
      if (stripe.webhookSecret) wanted.secrets.STRIPE_WEBHOOK_SECRET = stripe.webhookSecret;
      return wanted;
    }
    const value = (key: string) => variables.find((variable) => variable.key === key);
    const registration = await ensureWebhookEndpoint(
      stripe,
      stripe.webhookUrl,
      this.client.config.project,
      {
        endpointId: value('STRIPE_WEBHOOK_ENDPOINT')?.value ?? null,
        hasSecret: value('STRIPE_WEBHOOK_SECRET') !== undefined,
      },
    );
    if (registration.change) this.change(`+ ${registration.change}`);
    wanted.plain.STRIPE_WEBHOOK_ENDPOINT = registration.endpointId;
    // Kept: the function has its secret already, and nothing may remove it.
    if (registration.secret) wanted.secrets.STRIPE_WEBHOOK_SECRET = registration.secret;
    else wanted.managed = STRIPE_VARIABLES.filter((key) => key !== 'STRIPE_WEBHOOK_SECRET');
    return wanted;
  }

  private change(line: string): void {
    this.changes.push(line);
    this.log(`  ${line}`);
  }

  async apply(schema: SchemaSpec): Promise<ProvisionReport> {
    await this.ensureTeam(schema.team);
    await this.ensureDatabase(schema.database);
    for (const collection of schema.collections)
      await this.ensureCollection(schema.database.id, collection);
    for (const bucket of schema.buckets) await this.ensureBucket(bucket);
    for (const fn of schema.functions) await this.ensureFunction(fn);
    // Last, once the functions that write the attribute are deployed: none is left to write
    // documents without it.
    for (const collection of schema.collections)
      for (const backfill of collection.backfills ?? [])
        await this.backfill(
          { databaseId: schema.database.id, collectionId: collection.id },
          backfill,
        );
    return { changes: [...this.changes] };
  }

  private async ensureTeam(team: SchemaSpec['team']): Promise<void> {
    const existing = await getOrNull(() => this.teams.get({ teamId: team.id }));
    if (!existing) {
      await this.teams.create({ teamId: team.id, name: team.name });
      this.change(`+ team ${team.id}`);
    } else if (existing.name !== team.name) {
      await this.teams.updateName({ teamId: team.id, name: team.name });
      this.change(`~ team ${team.id} (name)`);
    }
  }

  private async ensureDatabase(database: SchemaSpec['database']): Promise<void> {
    const existing = await getOrNull(() => this.databases.get({ databaseId: database.id }));
    if (!existing) {
      await this.databases.create({ databaseId: database.id, name: database.name });
      this.change(`+ database ${database.id}`);
    } else if (existing.name !== database.name) {
      await this.databases.update({ databaseId: database.id, name: database.name });
      this.change(`~ database ${database.id} (name)`);
    }
  }

  private async ensureCollection(databaseId: string, spec: CollectionSpec): Promise<void> {
    const ids = { databaseId, collectionId: spec.id };
    const existing = await getOrNull(() => this.databases.getCollection(ids));
    if (!existing) {
      await this.databases.createCollection({
        ...ids,
        name: spec.name,
        permissions: spec.permissions,
        documentSecurity: spec.documentSecurity,
        enabled: true,
      });
      this.change(`+ collection ${spec.id}`);
    } else {
      const diffs: string[] = [];
      if (existing.name !== spec.name) diffs.push('name');
      if (!sameSet(existing.$permissions, spec.permissions)) diffs.push('permissions');
      if (existing.documentSecurity !== spec.documentSecurity) diffs.push('documentSecurity');
      if (!existing.enabled) diffs.push('enabled');
      if (diffs.length) {
        await this.databases.updateCollection({
          ...ids,
          name: spec.name,
          permissions: spec.permissions,
          documentSecurity: spec.documentSecurity,
          enabled: true,
        });
        this.change(`~ collection ${spec.id} (${diffs.join(', ')})`);
      }
    }
    await this.ensureAttributes(ids, spec);
    await this.ensureIndexes(ids, spec);
  }

  /** Fills in `backfill.key` for every document holding null for it, a page at a time. */
  private async backfill(
    ids: { databaseId: string; collectionId: string },
    backfill: BackfillSpec,
  ): Promise<void> {
    let filled = 0;
    for (;;) {
      const { documents } = await this.databases.listDocuments({
        ...ids,
        queries: [
          Query.isNull(backfill.key),
          Query.select(['$id', ...backfill.reads]),
          Query.limit(BACKFILL_PAGE),
        ],
        total: false,
      });
      if (documents.length === 0) break;
      await Promise.all(
        documents.map((document) =>
          this.databases.updateDocument({
            ...ids,
            documentId: document.$id,
            data: { [backfill.key]: backfill.value(document) },
          }),
        ),
      );
      filled += documents.length;
      if (filled % BACKFILL_PROGRESS_EVERY === 0)
        this.progress(
          `  … ${ids.collectionId}.${backfill.key}: ${filled} document(s) filled in so far`,
        );
      if (documents.length < BACKFILL_PAGE) break;
    }
    if (filled > 0)
      this.change(`~ ${ids.collectionId}.${backfill.key} filled in for ${filled} document(s)`);
  }

  private async ensureAttributes(
    ids: { databaseId: string; collectionId: string },
    spec: CollectionSpec,
  ): Promise<void> {
    const { attributes } = await this.databases.listAttributes({
      ...ids,
      queries: [Query.limit(100)],
    });
    const byKey = new Map(
      (attributes as AnyAttribute[]).map((attribute) => [attribute.key, attribute]),
    );
    const pending: string[] = [];
    for (const attribute of spec.attributes) {
      const actual = byKey.get(attribute.key);
      if (!actual) {
        await this.createAttribute(ids, attribute);
        this.change(`+ attribute ${spec.id}.${attribute.key} (${attribute.type})`);
        pending.push(attribute.key);
        continue;
      }
      if (!typeMatches(attribute, actual)) {
        throw new Error(
          `Attribute ${spec.id}.${attribute.key} is ${actual.type}${actual.format ? `/${actual.format}` : ''} on the backend but ${attribute.type} in the schema; changing a type needs a manual migration.`,
        );
      }
      const diffs = attributeDifferences(attribute, actual);
      if (diffs.length) {
        await this.updateAttribute(ids, attribute);
        this.change(`~ attribute ${spec.id}.${attribute.key} (${diffs.join(', ')})`);
        pending.push(attribute.key);
      }
    }
    await this.waitUntilAvailable(ids, pending);
  }

  private async waitUntilAvailable(
    ids: { databaseId: string; collectionId: string },
    keys: string[],
  ): Promise<void> {
    const deadline = Date.now() + 120_000;
    for (const key of keys) {
      for (;;) {
        const attribute = (await this.databases.getAttribute({ ...ids, key })) as AnyAttribute;
        if (attribute.status === 'available') break;
        if (attribute.status === 'failed')
          throw new Error(`Attribute ${ids.collectionId}.${key} failed: ${attribute.error}`);
        if (Date.now() > deadline)
          throw new Error(
            `Attribute ${ids.collectionId}.${key} is still ${attribute.status} after 120 s`,
          );
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }

  private async createAttribute(
    ids: { databaseId: string; collectionId: string },
    spec: AttributeSpec,
  ): Promise<void> {
    const base = { ...ids, key: spec.key, required: spec.required };
    const withDefault = <T>(value: T | null | undefined) =>
      value === undefined || value === null ? {} : { xdefault: value };
    switch (spec.type) {
      case 'string':
        await this.databases.createStringAttribute({
          ...base,
          size: spec.size,
          ...withDefault(spec.default),
        });
        return;
      case 'email':
        await this.databases.createEmailAttribute({ ...base, ...withDefault(spec.default) });
        return;
      case 'enum':
        await this.databases.createEnumAttribute({
          ...base,
          elements: [...spec.elements],
          ...withDefault(spec.default),
        });
        return;
      case 'integer':
        await this.databases.createIntegerAttribute({
          ...base,
          ...(spec.min === undefined ? {} : { min: spec.min }),
          ...(spec.max === undefined ? {} : { max: spec.max }),
          ...withDefault(spec.default),
        });
        return;
      case 'float':
        await this.databases.createFloatAttribute({
          ...base,
          ...(spec.min === undefined ? {} : { min: spec.min }),
          ...(spec.max === undefined ? {} : { max: spec.max }),
          ...withDefault(spec.default),
        });
        return;
      case 'boolean':
        await this.databases.createBooleanAttribute({ ...base, ...withDefault(spec.default) });
        return;
      case 'datetime':
        await this.databases.createDatetimeAttribute({ ...base, ...withDefault(spec.default) });
        return;
    }
  }

  private async updateAttribute(
    ids: { databaseId: string; collectionId: string },
    spec: AttributeSpec,
  ): Promise<void> {
    const base = { ...ids, key: spec.key, required: spec.required };
    switch (spec.type) {
      case 'string':
        await this.databases.updateStringAttribute({
          ...base,
          size: spec.size,
          xdefault: spec.default ?? (null as unknown as string),
        });
        return;
      case 'email':
        await this.databases.updateEmailAttribute({
          ...base,
          xdefault: spec.default ?? (null as unknown as string),
        });
        return;
      case 'enum':
        await this.databases.updateEnumAttribute({
          ...base,
          elements: [...spec.elements],
          xdefault: spec.default ?? (null as unknown as string),
        });
        return;
      case 'integer':
        await this.databases.updateIntegerAttribute({
          ...base,
          xdefault: spec.default ?? (null as unknown as number),
          ...(spec.min === undefined ? {} : { min: spec.min }),
          ...(spec.max === undefined ? {} : { max: spec.max }),
        });
        return;
      case 'float':
        await this.databases.updateFloatAttribute({
          ...base,
          xdefault: spec.default ?? (null as unknown as number),
          ...(spec.min === undefined ? {} : { min: spec.min }),
          ...(spec.max === undefined ? {} : { max: spec.max }),
        });
        return;
      case 'boolean':
        await this.databases.updateBooleanAttribute({
          ...base,
          xdefault: spec.default ?? (null as unknown as boolean),
        });
        return;
      case 'datetime':
        await this.databases.updateDatetimeAttribute({
          ...base,
          xdefault: spec.default ?? (null as unknown as string),
        });
        return;
    }
  }

  private async ensureIndexes(
    ids: { databaseId: string; collectionId: string },
    spec: CollectionSpec,
  ): Promise<void> {
    const { indexes } = await this.databases.listIndexes({ ...ids, queries: [Query.limit(100)] });
    const byKey = new Map(indexes.map((index) => [index.key, index]));
    for (const index of spec.indexes) {
      const actual = byKey.get(index.key);
      if (actual && indexMatches(index, actual)) continue;
      if (actual) {
        await this.databases.deleteIndex({ ...ids, key: index.key });
        await this.waitForIndexGone(ids, index.key);
      }
      await this.databases.createIndex({
        ...ids,
        key: index.key,
        type: index.type as DatabasesIndexType,
        attributes: index.attributes,
        ...(index.orders ? { orders: index.orders as OrderBy[] } : {}),
      });
      this.change(
        `${actual ? '~' : '+'} index ${spec.id}.${index.key} (${index.type}: ${index.attributes.join(', ')})`,
      );
    }
  }

  private async waitForIndexGone(
    ids: { databaseId: string; collectionId: string },
    key: string,
  ): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (await getOrNull(() => this.databases.getIndex({ ...ids, key }))) {
      if (Date.now() > deadline)
        throw new Error(`Index ${ids.collectionId}.${key} was not deleted within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /**
   * Creates or updates a function, its variables, and — when its code changed (or a variable did,
   * since a running runtime keeps the environment it started with) — deploys a new build and
   * waits until it is active.
   */
  private async ensureFunction(spec: FunctionSpec): Promise<void> {
    const functionId = spec.id;
    const settings = {
      functionId,
      name: spec.name,
      runtime: spec.runtime as Runtime,
      execute: spec.execute,
      events: spec.events,
      schedule: spec.schedule,
      timeout: spec.timeout,
      enabled: true,
      logging: true,
      entrypoint: FUNCTION_ENTRYPOINT,
      commands: '',
      scopes: spec.scopes as ProjectKeyScopes[],
    };
    let existing = await getOrNull(() => this.functions.get({ functionId }));
    if (!existing) {
      existing = await this.functions.create(settings);
      this.change(`+ function ${functionId}`);
    } else {
      const diffs = functionDifferences(spec, existing);
      if (diffs.length) {
        existing = await this.functions.update(settings);
        this.change(`~ function ${functionId} (${diffs.join(', ')})`);
      }
    }
    const { variables } = await this.functions.listVariables({
      functionId,
      queries: [Query.limit(100)],
    });
    let variablesChanged = false;
    const wanted = await this.wantedVariables(spec, variables);
    const secretHashes = Object.fromEntries(
      Object.entries(wanted.secrets).map(([key, value]) => [
        secretHashVariable(key),
        sha256(value),
      ]),
    );
    for (const [key, value] of Object.entries(wanted.secrets)) {
      const actual = variables.find((variable) => variable.key === key);
      const hash = variables.find((variable) => variable.key === secretHashVariable(key));
      if (actual && hash?.value === secretHashes[secretHashVariable(key)]) continue;
      if (actual)
        await this.functions.updateVariable({
          functionId,
          variableId: actual.$id,
          key,
          value,
          secret: true,
        });
      else
        await this.functions.createVariable({
          functionId,
          variableId: ID.unique(),
          key,
          value,
          secret: true,
        });
      this.change(`${actual ? '~' : '+'} secret variable ${functionId}.${key}`);
      variablesChanged = true;
    }
    for (const key of wanted.managed) {
      if (key in wanted.plain || key in wanted.secrets) continue;
      for (const stale of variables.filter(
        (variable) => variable.key === key || variable.key === secretHashVariable(key),
      )) {
        await this.functions.deleteVariable({ functionId, variableId: stale.$id });
        this.change(`- variable ${functionId}.${stale.key}`);
        variablesChanged = true;
      }
    }
    for (const [key, value] of Object.entries({ ...wanted.plain, ...secretHashes })) {
      const actual = variables.find((variable) => variable.key === key);
      if (!actual) {
        await this.functions.createVariable({
          functionId,
          variableId: ID.unique(),
          key,
          value,
          secret: false,
        });
        this.change(`+ variable ${functionId}.${key}`);
        variablesChanged = true;
      } else if (!actual.secret && actual.value !== value) {
        // A variable someone made secret cannot be read back; it is left as it is.
        await this.functions.updateVariable({
          functionId,
          variableId: actual.$id,
          key,
          value,
          secret: false,
        });
        this.change(`~ variable ${functionId}.${key}`);
        variablesChanged = true;
      }
    }
    const bundle = await bundleFunction(functionId, this.functionsDir).catch((error: unknown) => {
      throw new Error(
        `Function ${functionId} failed to build: ${(error as Error).message.split('\n').slice(0, 2).join(' ')}`,
        { cause: error },
      );
    });
    const hashVariable = variables.find((variable) => variable.key === CODE_HASH_VARIABLE);
    if (existing.deploymentId && hashVariable?.value === bundle.hash && !variablesChanged) return;
    const deployment = await this.functions.createDeployment({
      functionId,
      code: InputFile.fromBuffer(bundle.archive, `${functionId}.tar.gz`),
      activate: true,
      entrypoint: FUNCTION_ENTRYPOINT,
      commands: '',
    });
    await this.waitForDeployment(functionId, deployment.$id);
    const hashSetting = { functionId, key: CODE_HASH_VARIABLE, value: bundle.hash, secret: false };
    if (hashVariable)
      await this.functions.updateVariable({ ...hashSetting, variableId: hashVariable.$id });
    else await this.functions.createVariable({ ...hashSetting, variableId: ID.unique() });
    this.change(
      `${existing.deploymentId ? '~' : '+'} deployment ${functionId} (${bundle.hash.slice(0, 12)}, ${Math.ceil(bundle.size / 1024)} KiB)`,
    );
  }

  /** Waits until a deployment is built and active; throws with the build logs if it failed. */
  private async waitForDeployment(functionId: string, deploymentId: string): Promise<void> {
    const deadline = Date.now() + 600_000;
    for (;;) {
      const deployment = await this.functions.getDeployment({ functionId, deploymentId });
      if (deployment.status === 'failed' || deployment.status === 'canceled')
        throw new Error(
          `Function ${functionId} failed to deploy: its build ${deploymentId} ${deployment.status} (${lastLine(deployment.buildLogs)}); its full build log is on the deployment.`,
        );
      if (deployment.status === 'ready') {
        const fn = await this.functions.get({ functionId });
        if (fn.deploymentId === deploymentId) return;
      }
      if (Date.now() > deadline)
        throw new Error(
          `Deployment ${deploymentId} of ${functionId} is still ${deployment.status} after 600 s`,
        );
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  private async ensureBucket(spec: BucketSpec): Promise<void> {
    const existing = await getOrNull(() => this.storage.getBucket({ bucketId: spec.id }));
    const settings = {
      bucketId: spec.id,
      name: spec.name,
      permissions: spec.permissions,
      fileSecurity: spec.fileSecurity,
      enabled: true,
      maximumFileSize: spec.maximumFileSize,
      allowedFileExtensions: spec.allowedFileExtensions,
    };
    if (!existing) {
      await this.storage.createBucket(settings);
      this.change(`+ bucket ${spec.id}`);
      return;
    }
    const diffs: string[] = [];
    if (existing.name !== spec.name) diffs.push('name');
    if (!sameSet(existing.$permissions, spec.permissions)) diffs.push('permissions');
    if (existing.fileSecurity !== spec.fileSecurity) diffs.push('fileSecurity');
    if (!existing.enabled) diffs.push('enabled');
    if (existing.maximumFileSize !== spec.maximumFileSize) diffs.push('maximumFileSize');
    if (!sameSet(existing.allowedFileExtensions, spec.allowedFileExtensions))
      diffs.push('allowedFileExtensions');
    if (diffs.length) {
      await this.storage.updateBucket(settings);
      this.change(`~ bucket ${spec.id} (${diffs.join(', ')})`);
    }
  }
}

/** The last non-empty line of a log (`no log` when there is none). */
function lastLine(log: string): string {
  return (
    log
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1) ?? 'no log'
  );
}

function functionDifferences(spec: FunctionSpec, actual: Models.Function): string[] {
  const diffs: string[] = [];
  if (actual.name !== spec.name) diffs.push('name');
  if (actual.runtime !== spec.runtime) diffs.push('runtime');
  if (!sameSet(actual.execute, spec.execute)) diffs.push('execute');
  if (!sameSet(actual.events, spec.events)) diffs.push('events');
  if ((actual.schedule ?? '') !== spec.schedule) diffs.push('schedule');
  if (actual.timeout !== spec.timeout) diffs.push('timeout');
  if (!sameSet(actual.scopes, spec.scopes)) diffs.push('scopes');
  if (!actual.enabled) diffs.push('enabled');
  if (!actual.logging) diffs.push('logging');
  if (actual.entrypoint !== FUNCTION_ENTRYPOINT) diffs.push('entrypoint');
  if ((actual.commands ?? '') !== '') diffs.push('commands');
  return diffs;
}

function indexMatches(spec: IndexSpec, actual: Models.Index): boolean {
  if (actual.type !== spec.type || actual.attributes.join(',') !== spec.attributes.join(','))
    return false;
  const wanted = spec.orders ?? [];
  const have = (actual.orders ?? []).filter((order): order is string => !!order);
  return wanted.length === 0 || wanted.join(',') === have.join(',');
}
