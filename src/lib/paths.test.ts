import { describe, expect, it } from 'vitest';
import { matchPath, paths, safeRedirect } from './paths.ts';

describe('matchPath', () => {
  it('matches static and parameterised routes', () => {
    expect(matchPath('/', '/')).toEqual({});
    expect(matchPath('/orders', '/orders/')).toEqual({});
    expect(matchPath('/orders/:id', '/orders/a%20b')).toEqual({ id: 'a b' });
    expect(matchPath('/orders/:id', '/orders')).toBeNull();
    expect(matchPath('/team', '/products')).toBeNull();
  });
});

describe('safeRedirect', () => {
  it('allows app paths only', () => {
    expect(safeRedirect('/orders?status=paid')).toBe('/orders?status=paid');
    expect(safeRedirect('https://evil.test')).toBe('/');
    expect(safeRedirect('//evil.test')).toBe('/');
    expect(safeRedirect('/login')).toBe('/');
    expect(safeRedirect(null)).toBe('/');
  });

  it('round-trips through the login link', () => {
    const link = paths.login('/orders/abc?x=1');
    const redirect = new URL(link, 'http://app.test').searchParams.get('redirectTo');
    expect(safeRedirect(redirect)).toBe('/orders/abc?x=1');
  });
});
