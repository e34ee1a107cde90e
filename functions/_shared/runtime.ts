/**
 * Appwrite's Node runtime contract (Open Runtimes v5) as Livedesk's functions use it:
 * `export default async ({ req, res, log, error }) => res.json(…)`.
 */

/** The request a function receives. */
export interface FunctionRequest {
  /** The raw body as text. */
  readonly bodyText: string;
  /** The body parsed as JSON (throws on invalid JSON). */
  readonly bodyJson: unknown;
  readonly bodyBinary: Buffer;
  /** Lower-case header names: `x-appwrite-user-id`, `x-appwrite-key`, `x-appwrite-trigger`… */
  readonly headers: Record<string, string | undefined>;
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly queryString: string;
  readonly host: string;
  readonly scheme: string;
  readonly port: number;
  readonly url: string;
}

/** What a function returns; build it with {@link FunctionResponse}. */
export type FunctionOutput = { readonly body: unknown; readonly statusCode: number };

/** The response builders. */
export interface FunctionResponse {
  json(value: unknown, statusCode?: number, headers?: Record<string, string>): FunctionOutput;
  text(body: string, statusCode?: number, headers?: Record<string, string>): FunctionOutput;
  send(body: unknown, statusCode?: number, headers?: Record<string, string>): FunctionOutput;
  binary(bytes: Uint8Array, statusCode?: number, headers?: Record<string, string>): FunctionOutput;
  empty(): FunctionOutput;
  redirect(url: string, statusCode?: number, headers?: Record<string, string>): FunctionOutput;
}

/** The context passed to a function. */
export interface FunctionContext {
  req: FunctionRequest;
  res: FunctionResponse;
  log(...messages: unknown[]): void;
  error(...messages: unknown[]): void;
}
