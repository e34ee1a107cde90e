import { describe, expect, it } from 'vitest';
import {
  isCustomerPath,
  isDeskScreen,
  isPublicPath,
  matchPath,
  paths,
  safeRedirect,
} from './paths.ts';

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

describe('screens', () => {
  it('tells the shop, the sign-in screens and the desk apart', () => {
    expect(isCustomerPath('/shop')).toBe(true);
    expect(isCustomerPath('/track/abc')).toBe(true);
    expect(isCustomerPath('/orders')).toBe(false);
    expect(['/login', '/signup', '/join'].every(isPublicPath)).toBe(true);
    expect(isPublicPath('/orders')).toBe(false);
    expect(isDeskScreen('/orders')).toBe(true);
    expect(isDeskScreen('/orders/abc')).toBe(true);
    expect(isDeskScreen('/')).toBe(true);
    expect(isDeskScreen('/login')).toBe(false);
    expect(isDeskScreen('/track/abc')).toBe(false);
  });
});
