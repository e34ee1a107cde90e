import { AppwriteException } from 'appwrite';
import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../domain/errors.ts';
import { toAppError } from './errors.ts';

const exception = (code: number, type: string, message = 'x', response = '') =>
  new AppwriteException(message, code, type, response);

describe('toAppError', () => {
  it('maps wrong credentials to AUTH_INVALID with the catalogue message', () => {
    const error = toAppError(exception(401, 'user_invalid_credentials'));
    expect(error.code).toBe('AUTH_INVALID');
    expect(error.message).toBe('Email or password is incorrect.');
  });

  it('maps a missing session to AUTH_REQUIRED and a refused action to FORBIDDEN', () => {
    expect(toAppError(exception(401, 'general_unauthorized_scope')).code).toBe('AUTH_REQUIRED');
    const forbidden = toAppError(exception(401, 'user_unauthorized'), 'cancel orders');
    expect(forbidden.code).toBe('FORBIDDEN');
    expect(forbidden.message).toBe('You don’t have permission to cancel orders.');
  });

  it('prefers a function error body {error: {code, message}}', () => {
    const body = JSON.stringify({
      error: { code: 'ORDER_CONFLICT', message: 'Ana Silva claimed this order a moment ago.' },
    });
    const error = toAppError(exception(409, 'general_argument_invalid', 'x', body));
    expect(error.code).toBe('ORDER_CONFLICT');
    expect(error.message).toBe('Ana Silva claimed this order a moment ago.');
  });

  it('maps 429 to RATE_LIMITED and network failures to OFFLINE', () => {
    expect(toAppError(exception(429, 'general_rate_limit_exceeded')).code).toBe('RATE_LIMITED');
    expect(toAppError(new TypeError('Failed to fetch')).code).toBe('OFFLINE');
  });

  it('keeps AppErrors and gives anything else a reference id', () => {
    const original = new AppError('INVALID_TRANSITION', 'This order is already ready.');
    expect(toAppError(original)).toBe(original);
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const error = toAppError(new Error('boom'));
    expect(error.code).toBe('SERVER_ERROR');
    expect(error.message).toMatch(/^Something went wrong \(ref [A-Z0-9]+\)\.$/);
    expect(log).toHaveBeenCalledOnce();
    log.mockRestore();
  });

  it('reads a function that cannot run (no built deployment) as SERVER_ERROR, not "not found"', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const type of ['deployment_not_found', 'build_not_ready', 'function_not_found']) {
      const cannotRun = toAppError(exception(404, type, 'no deployment'));
      expect(cannotRun.code).toBe('SERVER_ERROR');
      expect(cannotRun.message).toMatch(/^Something went wrong \(ref [A-Z0-9]+\)\.$/);
    }
    log.mockRestore();
  });
});
