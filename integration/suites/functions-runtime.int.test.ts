import { AppwriteException as WebAppwriteException, Functions as WebFunctions } from 'appwrite';
import { Functions, Teams, type AppwriteException } from 'node-appwrite';
import { afterEach, describe, expect, it } from 'vitest';
import { installBrowserGlobals, sleep, storage, until } from '../support/browser.ts';
import {
  backend,
  beforeAllOnTarget,
  serverClient,
  uniqueTestId,
  webClient,
} from '../support/clients.ts';
import {
  deployTestFunction,
  finishedExecution,
  functionUrl,
  poll,
  tickMinute,
  tickScheduler,
} from '../support/functions.ts';
import { startOwnBackend } from '../support/own-backend.ts';
import type { StartedBackend } from '../targets/types.ts';
import { parseExecution, toAppError } from '../../store/index.ts';
import { closeAll, createWebUser, listen, realtimeFor } from '../support/realtime.ts';

installBrowserGlobals();

/** A function that shows what it received, and misbehaves on request. */
const ECHO = `
export default async ({ req, res, log, error }) => {
  log('seen', req.method, req.path);
  switch (req.path) {
    case '/throw':
      log('before the throw');
      throw new Error('boom from the function');
    case '/loop':
      log('before the loop');
      for (;;) {}
    case '/hog': {
      log('before the hog');
      const keep = [];
      // Arrays of doubles: the collector need not look inside them, so the heap fills fast.
      for (;;) keep.push(new Array(1e6).fill(keep.length + 0.5));
    }
    case '/text':
      return res.text('plain', 201, { 'x-custom': 'yes' });
    case '/empty':
      return res.empty();
    case '/redirect':
      return res.redirect('https://example.com/next', 302);
    case '/send':
      return res.send('sent');
    case '/error':
      error('logged as an error');
      return res.json({ error: 'nope' }, 503);
    case '/whoami': {
      const endpoint = process.env.APPWRITE_FUNCTION_API_ENDPOINT;
      const project = process.env.APPWRITE_FUNCTION_PROJECT_ID;
      const jwt = req.headers['x-appwrite-user-jwt'];
      const userId = req.headers['x-appwrite-user-id'];
      const account = jwt
        ? await (await fetch(endpoint + '/account', { headers: { 'x-appwrite-project': project, 'x-appwrite-jwt': jwt } })).json()
        : null;
      const user = userId
        ? await (await fetch(endpoint + '/users/' + userId, { headers: { 'x-appwrite-project': project, 'x-appwrite-key': req.headers['x-appwrite-key'] } })).json()
        : null;
      return res.json({ accountId: account?.$id ?? null, userName: user?.name ?? null });
    }
  }
  let bodyJson = null;
  try { bodyJson = req.bodyJson; } catch {}
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => key.startsWith('APPWRITE_') || key === 'GREETING'),
  );
  return res.json({
    method: req.method, path: req.path, query: req.query, queryString: req.queryString,
    bodyText: req.bodyText, bodyJson, headers: req.headers, env,
  });
};
`;

/** Logs what triggered it, so a test can find its own executions. */
const RECORDER = `
export default async ({ req, res, log }) => {
  log('trigger=' + req.headers['x-appwrite-trigger'], 'event=' + (req.headers['x-appwrite-event'] ?? ''), req.bodyText);
  return res.json({ ok: true });
};
`;

const isLocal = () => ['local', 'container'].includes(backend().kind);

function expectAppwriteError(error: unknown, code: number, type: string): void {
  expect(error).toBeInstanceOf(Error);
  const { code: actualCode, type: actualType } = error as AppwriteException;
  expect({ code: actualCode, type: actualType }).toEqual({ code, type });
}

async function expectHealthy(): Promise<void> {
  const response = await fetch(`${backend().endpoint}/health/version`);
  expect(response.status).toBe(200);
}

/** Runs `xpath`, expects it failed with its logs, then the backend and a fresh runtime serving. */
async function expectFailedAndRecovered(
  functions: Functions,
  functionId: string,
  xpath: string,
  errorText: string,
  logText: string,
): Promise<void> {
  const execution = await functions.createExecution({ functionId, xpath });
  expect(execution).toMatchObject({ status: 'failed', responseStatusCode: 500 });
  expect(execution.errors).toContain(errorText);
  expect(execution.logs).toContain(logText);
  const stored = await functions.getExecution({ functionId, executionId: execution.$id });
  expect(stored).toMatchObject({ status: 'failed', responseStatusCode: 500 });
  await expectHealthy();
  // The next execution gets a fresh runtime.
  expect(await functions.createExecution({ functionId, xpath: '/send' })).toMatchObject({
    status: 'completed',
    responseBody: 'sent',
  });
}

describe('functions: management', () => {
  it('creates a function with a Node runtime, variables and an active deployment', async () => {
    const id = uniqueTestId('fn');
    const { functions, fn, deployment } = await deployTestFunction({
      id,
      code: ECHO,
      execute: ['users'],
      timeout: 5,
      scopes: ['users.read'],
      variables: { GREETING: 'hello' },
    });
    expect(fn).toMatchObject({
      $id: id,
      runtime: 'node-22',
      execute: ['users'],
      timeout: 5,
      scopes: ['users.read'],
      entrypoint: 'main.js',
      deploymentId: deployment.$id,
      enabled: true,
    });
    expect(fn.vars.map((v) => [v.key, v.value, v.secret])).toEqual([['GREETING', 'hello', false]]);
    expect(deployment).toMatchObject({ resourceId: id, status: 'ready', entrypoint: 'main.js' });
    const secret = await functions.createVariable({
      functionId: id,
      variableId: 'unique()',
      key: 'HIDDEN',
      value: 's3cret',
    });
    expect(secret).toMatchObject({ key: 'HIDDEN', value: '', secret: true });
    const list = await functions.listDeployments({ functionId: id });
    expect(list.deployments.map((d) => d.$id)).toEqual([deployment.$id]);
    const runtimes = await functions.listRuntimes();
    expect(runtimes.runtimes.map((r) => r.$id)).toContain('node-22');
  });

  it('refuses runtimes it cannot run and invalid schedules', async () => {
    const functions = new Functions(serverClient());
    await expect(
      functions.create({
        functionId: uniqueTestId('fn'),
        name: 'py',
        runtime: 'python-3.12' as never,
      }),
    ).rejects.toSatisfy((error) => {
      expectAppwriteError(error, 404, 'function_runtime_unsupported');
      return true;
    });
    await expect(
      functions.create({
        functionId: uniqueTestId('fn'),
        name: 'bad cron',
        runtime: 'node-22' as never,
        schedule: 'every minute',
      }),
    ).rejects.toSatisfy((error) => {
      expectAppwriteError(error, 400, 'general_argument_invalid');
      return true;
    });
  });
});

describe('functions: executions', () => {
  let functionId: string;
  let functions: Functions;
  let deploymentId: string;

  beforeAllOnTarget(async () => {
    storage.clear();
    functionId = uniqueTestId('echo');
    const deployed = await deployTestFunction({
      id: functionId,
      code: ECHO,
      execute: ['users'],
      timeout: 2,
      scopes: ['users.read'],
      variables: { GREETING: 'hello' },
    });
    functions = deployed.functions;
    deploymentId = deployed.deployment.$id;
  });

  afterEach(async () => {
    await closeAll();
  });

  it("runs synchronously for a signed-in user with Appwrite's runtime contract", async () => {
    const user = await createWebUser('Sync Sam');
    const execution = await new WebFunctions(user.client).createExecution({
      functionId,
      body: '{"a":1}',
      xpath: '/hello?x=1&y=two',
      method: 'PUT' as never,
      headers: { 'content-type': 'application/json', 'x-extra': 'v' },
    });
    expect(execution).toMatchObject({
      functionId,
      deploymentId,
      trigger: 'http',
      status: 'completed',
      responseStatusCode: 200,
      requestMethod: 'PUT',
      requestPath: '/hello?x=1&y=two',
      $permissions: [`read("user:${user.userId}")`],
    });
    expect(execution.duration).toBeGreaterThan(0);
    expect(execution.logs).toContain('seen PUT /hello');
    const seen = JSON.parse(execution.responseBody) as {
      method: string;
      path: string;
      query: Record<string, string>;
      bodyJson: unknown;
      headers: Record<string, string>;
      env: Record<string, string>;
    };
    expect(seen).toMatchObject({
      method: 'PUT',
      path: '/hello',
      query: { x: '1', y: 'two' },
      bodyJson: { a: 1 },
    });
    expect(seen.headers).toMatchObject({
      'x-appwrite-user-id': user.userId,
      'x-appwrite-trigger': 'http',
      'x-appwrite-execution-id': execution.$id,
      'x-extra': 'v',
    });
    expect(seen.headers['x-appwrite-key']).toBeTruthy();
    expect(seen.headers['x-appwrite-user-jwt']).toBeTruthy();
    expect(seen.env).toMatchObject({
      APPWRITE_FUNCTION_ID: functionId,
      APPWRITE_FUNCTION_PROJECT_ID: backend().projectId,
      APPWRITE_FUNCTION_DEPLOYMENT: deploymentId,
      GREETING: 'hello',
    });
    expect(seen.env.APPWRITE_FUNCTION_API_ENDPOINT).toMatch(/^https?:\/\/.+\/v1$/);
    // Nothing of the backend's own environment reaches the function.
    expect(Object.keys(seen.env)).not.toContain('APPWRITE_API_KEY');
    expect(JSON.stringify(seen.env)).not.toContain(backend().apiKey);
  });

  it("gives the function a JWT of the caller and a key with the function's scopes", async () => {
    const user = await createWebUser('Jay Wit');
    const execution = await new WebFunctions(user.client).createExecution({
      functionId,
      xpath: '/whoami',
    });
    expect(JSON.parse(execution.responseBody)).toEqual({
      accountId: user.userId,
      userName: 'Jay Wit',
    });
  });

  it('answers with what the response helpers build', async () => {
    const run = (xpath: string) => functions.createExecution({ functionId, xpath });
    const text = await run('/text');
    expect(text).toMatchObject({ responseStatusCode: 201, responseBody: 'plain' });
    expect(text.responseHeaders).toEqual(
      expect.arrayContaining([
        { name: 'x-custom', value: 'yes' },
        { name: 'content-type', value: 'text/plain; charset=utf-8' },
      ]),
    );
    expect(await run('/empty')).toMatchObject({ responseStatusCode: 204, responseBody: '' });
    const redirect = await run('/redirect');
    expect(redirect.responseStatusCode).toBe(302);
    expect(redirect.responseHeaders).toContainEqual({
      name: 'location',
      value: 'https://example.com/next',
    });
    expect(await run('/send')).toMatchObject({ responseStatusCode: 200, responseBody: 'sent' });
    const failed = await run('/error');
    expect(failed).toMatchObject({ status: 'failed', responseStatusCode: 503 });
    expect(failed.errors).toContain('logged as an error');
    // An API key has no user: no user id, no JWT, and no read permission on the execution.
    const anonymous = JSON.parse((await run('/')).responseBody) as {
      headers: Record<string, string>;
    };
    expect(anonymous.headers['x-appwrite-user-id']).toBe('');
    expect(anonymous.headers['x-appwrite-user-jwt']).toBe('');
  });

  it('runs asynchronously: 202 waiting, then processing and completed, with realtime events to the caller', async () => {
    const user = await createWebUser('Async Ada');
    const other = await createWebUser('Other Otto');
    const mine = await listen(realtimeFor(user.client), `functions.${functionId}`);
    const theirs = await listen(realtimeFor(other.client), `functions.${functionId}`);
    const response = await fetch(`${backend().endpoint}/functions/${functionId}/executions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-appwrite-project': backend().projectId,
        'x-appwrite-session': user.secret,
      },
      body: JSON.stringify({ async: true, path: '/async' }),
    });
    expect(response.status).toBe(202);
    const queued = (await response.json()) as { $id: string; status: string; functionId: string };
    expect(queued).toMatchObject({ status: 'waiting', functionId });
    const done = await finishedExecution(functions, functionId, queued.$id);
    expect(done).toMatchObject({ status: 'completed', responseStatusCode: 200, trigger: 'http' });
    expect(done.logs).toContain('seen POST /async');
    await until(
      () => mine.inbox.some((event) => event.payload.status === 'completed'),
      15_000,
      'the completed event',
    );
    const statuses = mine.inbox
      .filter((event) => event.payload.$id === queued.$id)
      .map((event) => event.payload.status);
    expect(statuses).toEqual(['waiting', 'processing', 'completed']);
    const completed = mine.inbox.find((event) => event.payload.status === 'completed')!;
    expect(completed.events).toContain(`functions.${functionId}.executions.${queued.$id}.update`);
    expect(completed.channels).toEqual(
      expect.arrayContaining([`executions.${queued.$id}`, `functions.${functionId}`, 'executions']),
    );
    await sleep(200);
    expect(theirs.inbox).toEqual([]);
  });

  it('keeps an execution scheduled for later until its time', async () => {
    const at = tickMinute(3);
    const queued = await functions.createExecution({
      functionId,
      async: true,
      xpath: '/later',
      scheduledAt: at.toISOString(),
    });
    expect(queued).toMatchObject({ status: 'scheduled', trigger: 'schedule' });
    expect(Date.parse(queued.scheduledAt!)).toBe(at.getTime());
    await expect(
      functions.createExecution({ functionId, xpath: '/later', scheduledAt: at.toISOString() }),
    ).rejects.toSatisfy((error) => {
      expectAppwriteError(error, 400, 'general_bad_request');
      return true;
    });
  });

  it("runs a scheduled execution when the scheduler's tick reaches its minute", async (context) => {
    if (!isLocal()) context.skip('the scheduler tick switch exists only on the local backend');
    const at = tickMinute(3);
    const queued = await functions.createExecution({
      functionId,
      async: true,
      xpath: '/later',
      scheduledAt: at.toISOString(),
    });
    expect(await tickScheduler(at)).toContain(queued.$id);
    const done = await finishedExecution(functions, functionId, queued.$id);
    expect(done).toMatchObject({ status: 'completed', trigger: 'schedule' });
    expect(done.logs).toContain('seen POST /later');
  });

  it.each([
    ['throws', '/throw', 'boom from the function', 'before the throw'],
    ['loops forever', '/loop', 'Execution timed out.', 'before the loop'],
  ])(
    'a function that %s ends failed with its logs, and the backend keeps serving',
    async (_what, xpath, errorText, logText) => {
      await expectFailedAndRecovered(functions, functionId, xpath, errorText, logText);
    },
    120_000,
  );

  it('a function that exhausts its memory ends failed with the memory error, and the backend keeps serving', async () => {
    // Its own function, run asynchronously with a timeout of 120 s (a synchronous call waits 30 s
    // at most): on a busy machine filling 512 MB takes a while, and it must end in the memory
    // error, not in a timeout.
    const id = uniqueTestId('fnhog');
    const hog = await deployTestFunction({ id, code: ECHO, execute: [], timeout: 120 });
    const queued = await hog.functions.createExecution({
      functionId: id,
      xpath: '/hog',
      async: true,
    });
    const execution = await finishedExecution(hog.functions, id, queued.$id, 200_000);
    expect(execution).toMatchObject({ status: 'failed', responseStatusCode: 500 });
    expect(execution.errors).toContain('memory');
    expect(execution.logs).toContain('before the hog');
    await expectHealthy();
    expect(await hog.functions.createExecution({ functionId: id, xpath: '/send' })).toMatchObject({
      status: 'completed',
      responseBody: 'sent',
    });
  }, 300_000);

  it('lists and gets executions; a user sees only their own', async () => {
    const user = await createWebUser('Lister Lu');
    const web = new WebFunctions(user.client);
    const own = await web.createExecution({ functionId, xpath: '/mine' });
    const viaKey = await functions.createExecution({ functionId, xpath: '/keyed' });
    const listed = await web.listExecutions({ functionId });
    expect(listed.executions.map((e) => e.$id)).toEqual([own.$id]);
    expect(listed.executions[0]).toMatchObject({ functionId, responseBody: '' });
    await expect(web.getExecution({ functionId, executionId: viaKey.$id })).rejects.toSatisfy(
      (error) => {
        expectAppwriteError(error, 404, 'execution_not_found');
        return true;
      },
    );
    const all = await functions.listExecutions({ functionId });
    expect(all.executions.map((e) => e.$id)).toEqual(expect.arrayContaining([own.$id, viaKey.$id]));
  });
});

/** Functions that cannot run, as a person's desk meets them. */
const CANNOT_RUN = {
  'its entry file is missing': {
    files: { 'other.js': 'export default () => null;', 'package.json': '{"type":"module"}' },
    reason: 'Failed to load entrypoint, file main.js does not exist.',
  },
  'it throws while loading': {
    files: {
      'main.js': "throw new Error('boom while loading');\nexport default () => null;",
      'package.json': '{"type":"module"}',
    },
    reason: 'boom while loading',
  },
  'it exits while loading': {
    files: {
      'main.js': 'process.exit(3);\nexport default () => null;',
      'package.json': '{"type":"module"}',
    },
    reason: 'exited (code 3)',
  },
} as const;

/** The backend's own output, where the target lets a test read it (a backend of its own). */
async function outputOf(started: StartedBackend): Promise<string | null> {
  if ('log' in started && typeof started.log === 'string') return started.log;
  if ('recentOutput' in started && typeof started.recentOutput === 'function')
    return (await (started.recentOutput as (lines: number) => Promise<string>)(200)) ?? '';
  return null;
}

describe('functions: a function that cannot run', () => {
  it.each(Object.entries(CANNOT_RUN))(
    'when %s, the execution ends failed with the reason and the desk says something went wrong, naming it',
    async (_case, { files, reason }) => {
      const id = uniqueTestId('fnbroken');
      const { functions } = await deployTestFunction({ id, code: '', files, execute: ['users'] });
      const user = await createWebUser('Broken Bo');
      const execution = await new WebFunctions(user.client).createExecution({
        functionId: id,
        body: '{}',
      });
      expect(execution.status).toBe('failed');
      expect(execution.responseStatusCode).toBeGreaterThanOrEqual(500);
      expect(execution.responseBody).toBe('');
      const stored = await functions.getExecution({ functionId: id, executionId: execution.$id });
      expect(stored.status).toBe('failed');
      if (isLocal()) expect(stored.errors).toContain(reason);
      else expect(stored.errors + stored.logs).not.toBe('');
      let shown: unknown = null;
      try {
        parseExecution(execution);
      } catch (error) {
        shown = error;
      }
      expect(shown).toMatchObject({
        code: 'SERVER_ERROR',
        message: `Something went wrong (ref ${execution.$id}).`,
      });
      await expectHealthy();
    },
    120_000,
  );

  it('when its build fails, the deployment says why and an execution is refused as the desk’s server error', async () => {
    const id = uniqueTestId('fnnobuild');
    const { deployment } = await deployTestFunction({
      id,
      code: 'export default ({ res }) => res.empty();',
      commands: 'echo compiling the function; exit 3',
      execute: ['users'],
      allowFailedBuild: true,
    });
    expect(deployment.status).toBe('failed');
    expect(deployment.buildLogs).toContain('compiling the function');
    if (isLocal()) expect(deployment.buildLogs).toContain('exited with code 3');
    const user = await createWebUser('Unbuilt Una');
    let refused: unknown = null;
    try {
      await new WebFunctions(user.client).createExecution({ functionId: id, body: '{}' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(WebAppwriteException);
    expect((refused as WebAppwriteException).type).toBe('deployment_not_found');
    expect(toAppError(refused)).toMatchObject({
      code: 'SERVER_ERROR',
      message: expect.stringMatching(/^Something went wrong \(ref [A-Z0-9]+\)\.$/),
    });
  }, 120_000);

  it('the backend logs one line for each, naming the execution or deployment', async (context) => {
    await using own = await startOwnBackend();
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const output = await outputOf(own);
    if (output === null) return context.skip('this target does not show its backend output');
    const missing = uniqueTestId('fnlogmiss');
    await deployTestFunction({
      id: missing,
      code: '',
      files: CANNOT_RUN['its entry file is missing'].files,
      connection: own,
    });
    const unbuilt = uniqueTestId('fnlognobuild');
    const { deployment } = await deployTestFunction({
      id: unbuilt,
      code: '',
      commands: 'exit 3',
      allowFailedBuild: true,
      connection: own,
    });
    const execution = await new Functions(serverClient(own)).createExecution({
      functionId: missing,
    });
    expect(execution.status).toBe('failed');
    const lines = await poll(
      async () => ((await outputOf(own)) ?? '').split('\n'),
      (all) => all.some((line) => line.includes(execution.$id)),
      10_000,
      'the backend to log the failed execution',
    );
    // One line each (a container's log may frame it, hence the containment).
    const naming = (id: string) => lines.filter((line) => line.includes(id));
    expect(naming(execution.$id)).toHaveLength(1);
    expect(naming(execution.$id)[0]).toContain(
      `[functions] ${missing}: execution ${execution.$id} failed (503): Failed to load entrypoint, file main.js does not exist.`,
    );
    expect(naming(deployment.$id)).toHaveLength(1);
    expect(naming(deployment.$id)[0]).toContain(
      `[functions] ${unbuilt}: deployment ${deployment.$id} failed to build: build commands exited with code 3`,
    );
  }, 120_000);
});

describe('functions: who may execute', () => {
  it('refuses guests unless `execute` grants them, as Appwrite does', async () => {
    const usersOnly = uniqueTestId('fnusers');
    const anyone = uniqueTestId('fnany');
    await deployTestFunction({ id: usersOnly, code: RECORDER, execute: ['users'] });
    await deployTestFunction({ id: anyone, code: RECORDER, execute: ['any'] });
    const guest = new WebFunctions(webClient());
    await expect(guest.createExecution({ functionId: usersOnly })).rejects.toSatisfy((error) => {
      expect(error).toBeInstanceOf(WebAppwriteException);
      expectAppwriteError(error, 401, 'user_unauthorized');
      return true;
    });
    expect(await guest.createExecution({ functionId: anyone })).toMatchObject({
      status: 'completed',
      $permissions: [],
    });
    const member = await createWebUser('Not In Team');
    const teamOnly = uniqueTestId('fnteam');
    await deployTestFunction({ id: teamOnly, code: RECORDER, execute: ['team:nobody-here'] });
    await expect(
      new WebFunctions(member.client).createExecution({ functionId: teamOnly }),
    ).rejects.toSatisfy((error) => {
      expectAppwriteError(error, 401, 'user_unauthorized');
      return true;
    });
  });

  it('hides a disabled function from users but not from API keys', async () => {
    const id = uniqueTestId('fnoff');
    const { functions, fn } = await deployTestFunction({ id, code: RECORDER, execute: ['users'] });
    await functions.update({
      functionId: id,
      name: fn.name,
      runtime: 'node-22' as never,
      execute: ['users'],
      enabled: false,
    });
    const user = await createWebUser('Disabled Dan');
    await expect(
      new WebFunctions(user.client).createExecution({ functionId: id }),
    ).rejects.toSatisfy((error) => {
      expectAppwriteError(error, 404, 'function_not_found');
      return true;
    });
    expect(await functions.createExecution({ functionId: id })).toMatchObject({
      status: 'completed',
    });
  });
});

describe('functions: triggers', () => {
  it('runs an event-triggered function once per event', async () => {
    const teamId = uniqueTestId('evteam');
    const id = uniqueTestId('fnevent');
    const { functions } = await deployTestFunction({
      id,
      code: RECORDER,
      execute: [],
      events: [`teams.${teamId}.create`],
    });
    await new Teams(serverClient()).create({ teamId, name: 'Triggered' });
    const list = await poll(
      () => functions.listExecutions({ functionId: id }),
      (l) => l.executions.some((e) => e.status === 'completed' || e.status === 'failed'),
      15_000,
      'the event execution',
    );
    await sleep(500);
    const again = await functions.listExecutions({ functionId: id });
    expect(again.total).toBe(1);
    const [execution] = list.executions;
    expect(execution).toMatchObject({
      trigger: 'event',
      status: 'completed',
      requestMethod: 'POST',
    });
    const finished = await finishedExecution(functions, id, execution!.$id);
    expect(finished.logs).toContain('trigger=event');
    expect(finished.logs).toContain(`event=teams.${teamId}.create`);
    expect(finished.logs).toContain(`"$id":"${teamId}"`);
  });

  it('fires a cron schedule on its minute, once', async (context) => {
    if (!isLocal()) context.skip('the scheduler tick switch exists only on the local backend');
    const id = uniqueTestId('fncron');
    const { functions } = await deployTestFunction({
      id,
      code: RECORDER,
      execute: [],
      schedule: '* * * * *',
    });
    const minute = tickMinute(5);
    const ofMine = async (ids: string[]) =>
      (await functions.listExecutions({ functionId: id })).executions.filter((e) =>
        ids.includes(e.$id),
      );
    const mine = await ofMine(await tickScheduler(minute));
    expect(mine).toHaveLength(1);
    const done = await finishedExecution(functions, id, mine[0]!.$id);
    expect(done).toMatchObject({ trigger: 'schedule', status: 'completed' });
    expect(done.logs).toContain('trigger=schedule');
    expect(await ofMine(await tickScheduler(minute))).toEqual([]);
  });
});

describe('functions: function URLs', () => {
  it('serves a function over plain HTTP at its own URL', async (context) => {
    if (!isLocal()) context.skip('function URLs of this form exist only on the local backend');
    const id = uniqueTestId('fnurl');
    const { functions } = await deployTestFunction({ id, code: ECHO, execute: ['any'] });
    const response = await fetch(functionUrl(id, '/hook?x=1'), {
      method: 'POST',
      headers: { 'stripe-signature': 't=1,v1=abc', 'content-type': 'application/json' },
      body: '{"type":"payment_intent.succeeded"}',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const seen = (await response.json()) as {
      path: string;
      query: Record<string, string>;
      bodyJson: unknown;
      headers: Record<string, string>;
    };
    expect(seen).toMatchObject({
      path: '/hook',
      query: { x: '1' },
      bodyJson: { type: 'payment_intent.succeeded' },
    });
    expect(seen.headers).toMatchObject({
      'stripe-signature': 't=1,v1=abc',
      'x-appwrite-user-id': '',
      'x-appwrite-trigger': 'http',
    });
    const text = await fetch(functionUrl(id, '/text'));
    expect([text.status, text.headers.get('x-custom'), await text.text()]).toEqual([
      201,
      'yes',
      'plain',
    ]);
    const executions = await functions.listExecutions({ functionId: id });
    expect(executions.executions.map((e) => e.requestPath)).toEqual(['/hook?x=1', '/text']);
  });

  it('refuses a function URL unless `execute` includes any or guests', async (context) => {
    if (!isLocal()) context.skip('function URLs of this form exist only on the local backend');
    const id = uniqueTestId('fnurlno');
    await deployTestFunction({ id, code: RECORDER, execute: ['users'] });
    const refused = await fetch(functionUrl(id, '/'));
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { type: string }).type).toBe(
      'function_execute_permission_missing',
    );
    const missing = await fetch(functionUrl('no-such-function', '/'));
    expect(missing.status).toBe(404);
  });
});

describe('functions: response formats', () => {
  it('names the function resourceId for 2.x clients and functionId for 1.9 ones', async (context) => {
    if (!isLocal()) context.skip('a 1.9 server answers every client in its own format');
    const id = uniqueTestId('fnfmt');
    await deployTestFunction({ id, code: RECORDER, execute: [] });
    const run = async (format: string) => {
      const response = await fetch(`${backend().endpoint}/functions/${id}/executions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-appwrite-project': backend().projectId,
          'x-appwrite-key': backend().apiKey,
          'x-appwrite-response-format': format,
        },
        body: '{}',
      });
      expect(response.status).toBe(201);
      return (await response.json()) as Record<string, unknown>;
    };
    const modern = await run('2.3.0');
    expect(modern).toMatchObject({ resourceId: id, resourceType: 'functions' });
    expect(modern).not.toHaveProperty('functionId');
    const legacy = await run('1.9.5');
    expect(legacy).toMatchObject({ functionId: id });
    expect(legacy).not.toHaveProperty('resourceId');
  });
});

describe('functions: restarts', () => {
  it('keeps deployments and scheduled executions across a restart, and the killed process of a running one is reported', async (context) => {
    await using own = await startOwnBackend();
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const id = uniqueTestId('fnrestart');
    const { functions } = await deployTestFunction({
      id,
      code: ECHO,
      execute: [],
      timeout: 30,
      connection: own,
    });
    const at = tickMinute(3);
    const scheduled = await functions.createExecution({
      functionId: id,
      async: true,
      xpath: '/after-restart',
      scheduledAt: at.toISOString(),
    });
    // A long execution is still running when the backend is killed.
    const running = await functions.createExecution({
      functionId: id,
      async: true,
      xpath: '/loop',
    });
    await poll(
      () => functions.getExecution({ functionId: id, executionId: running.$id }),
      (e) => e.status === 'processing',
      10_000,
      'the execution to start',
    );
    await own.crashAndRestart();
    expect(
      await functions.getExecution({ functionId: id, executionId: running.$id }),
    ).toMatchObject({ status: 'failed', errors: expect.stringContaining('backend stopped') });
    expect(
      await functions.getExecution({ functionId: id, executionId: scheduled.$id }),
    ).toMatchObject({ status: 'scheduled' });
    expect(await tickScheduler(at, own)).toContain(scheduled.$id);
    const done = await finishedExecution(functions, id, scheduled.$id);
    expect(done).toMatchObject({ status: 'completed', trigger: 'schedule' });
    expect(done.logs).toContain('seen POST /after-restart');
  }, 120_000);
});
