import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Backend, BackendModule } from '../../backend.ts';
import { ApiError } from '../../core/errors.ts';
import { normalizeDate } from '../../core/time.ts';
import { readBody } from '../../http/server.ts';
import { allowSwitch, answerJson } from '../../http/switches.ts';
import { routes } from './routes.ts';
import { FunctionsStore } from './store.ts';

/** Where a function answers plain HTTP: `/_functions/<functionId>/<path>` (its "function domain"). */
export const FUNCTION_URL_PREFIX = '/_functions/';
/** Test switch: run the scheduler's minute tick now (bootstrap key only). */
export const TICK_PATH = '/_emulator/functions/tick';

function answerError(res: ServerResponse, error: unknown): void {
  const apiError =
    error instanceof ApiError ? error : new ApiError('general_unknown', (error as Error).message);
  answerJson(res, apiError.code, apiError.toBody());
}

/**
 * A function's own URL, as a function domain is on Appwrite: any method and path, no Appwrite
 * headers needed; the function answers with its own status, headers and body. Like Appwrite it
 * requires `execute` to include `any` or `guests`, and the function sees no user. (CORS
 * preflight `OPTIONS` requests are answered by the backend itself, not the function.)
 */
function functionDomain(svc: FunctionsStore) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (!url.pathname.startsWith(FUNCTION_URL_PREFIX)) return false;
    const rest = url.pathname.slice(FUNCTION_URL_PREFIX.length);
    const slash = rest.indexOf('/');
    const functionId = decodeURIComponent(slash < 0 ? rest : rest.slice(0, slash));
    const path = `${slash < 0 ? '/' : rest.slice(slash)}${url.search}`;
    try {
      const fn = svc.function(functionId, false);
      svc.assertRunnable(fn);
      if (!fn.execute.includes('any') && !fn.execute.includes('guests'))
        throw new ApiError('function_execute_permission_missing');
      const body = await readBody(req, 20 * 1024 * 1024);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined) continue;
        headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      const forwarded = headers['x-forwarded-for'];
      const { response } = await svc.runNow(fn, {
        trigger: 'http',
        method: req.method ?? 'GET',
        path,
        headers,
        body: body.toString('utf8'),
        user: null,
        sessionId: null,
        ip: forwarded ? forwarded.split(',')[0]!.trim() : (req.socket.remoteAddress ?? ''),
      });
      const outHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (name === 'content-length' || name === 'transfer-encoding' || name === 'connection')
          continue;
        outHeaders[name] = value;
      }
      res.writeHead(response.statusCode, outHeaders);
      res.end(response.body);
    } catch (error) {
      answerError(res, error);
    }
    return true;
  };
}

/** `POST /_emulator/functions/tick` `{at?: ISO date}` → `{executions: [ids]}` (the scheduler, now). */
function tickSwitch(backend: Backend, svc: FunctionsStore) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (url.pathname !== TICK_PATH) return false;
    if (req.method !== 'POST') {
      answerJson(res, 405, new ApiError('general_not_implemented', 'Use POST.').toBody());
      return true;
    }
    if (!allowSwitch(backend, req, res)) return true;
    const raw = (await readBody(req)).toString('utf8');
    let at = Date.now();
    if (raw.trim()) {
      const parsed = JSON.parse(raw) as { at?: unknown };
      const date = typeof parsed.at === 'string' ? normalizeDate(parsed.at) : null;
      if (parsed.at !== undefined && !date) {
        answerJson(
          res,
          400,
          new ApiError('general_argument_invalid', 'Invalid `at` date.').toBody(),
        );
        return true;
      }
      if (date) at = Date.parse(date);
    }
    answerJson(res, 200, { executions: svc.tick(at).map((execution) => execution.id) });
    return true;
  };
}

/** Prints every function's URL (on start). */
function printFunctionUrls(svc: FunctionsStore): void {
  const all = svc.records.listFunctions();
  if (all.length === 0) {
    console.log(`  functions: none yet (each gets a URL ${svc.origin}${FUNCTION_URL_PREFIX}<id>/)`);
    return;
  }
  console.log('  function URLs:');
  for (const fn of all) console.log(`    ${fn.id.padEnd(20)} ${svc.functionUrl(fn.id)}`);
}

/**
 * Functions: functions, deployments (tar.gz archives, built and activated), variables, and
 * executions (synchronous, asynchronous, scheduled) run by Appwrite's Node runtime contract in
 * child processes; event triggers, cron schedules and function URLs. See docs/emulator-guide.md.
 */
export const functionsModule: BackendModule<'functions'> = {
  name: 'functions',
  store: (backend) => new FunctionsStore(backend),
  routes,
  attach: (backend, svc) => {
    const unsubscribe = backend.bus.subscribe((event) => svc.onEvent(event));
    backend.httpFallbacks.push(functionDomain(svc), tickSwitch(backend, svc));
    backend.server.once('listening', () => {
      svc.start();
      setImmediate(() => printFunctionUrls(svc));
    });
    return async () => {
      unsubscribe();
      await svc.close();
    };
  },
};
