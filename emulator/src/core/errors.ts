import { ERROR_TYPES, type ErrorType } from './error-types.ts';

/** The version string the local backend reports, as a self-hosted Appwrite 1.9 would. */
export const APPWRITE_VERSION = '1.9.6';

/**
 * One of Appwrite's errors, in its shape `{message, code, type, version}`. Core, services and the
 * protocol layers raise it alike; `code` is the HTTP status (or the realtime close code) the
 * HTTP server and the realtime hub answer it with. `args` fill the `%s` placeholders of the type's
 * default message; `message` replaces it.
 */
export class ApiError extends Error {
  readonly type: ErrorType;
  readonly code: number;

  constructor(type: ErrorType, message?: string | null, args: readonly string[] = []) {
    const [code, template] = ERROR_TYPES[type];
    let text = message ?? template;
    if (!message) for (const arg of args) text = text.replace('%s', arg);
    super(text);
    this.type = type;
    this.code = code;
  }

  toBody(): { message: string; code: number; type: string; version: string } {
    return { message: this.message, code: this.code, type: this.type, version: APPWRITE_VERSION };
  }
}

/** `general_argument_invalid` with Appwrite's wording: "Invalid `name` param: reason". */
export function invalidParam(name: string, reason: string): ApiError {
  return new ApiError('general_argument_invalid', `Invalid \`${name}\` param: ${reason}`);
}
