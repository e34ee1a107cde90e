import type { RequestContext } from './context.ts';
import type { Cookie, Reply } from './reply.ts';

/** The session cookie's name: `a_session_<projectId>` (and `…_legacy`, for browsers that refuse SameSite=None). */
export function sessionCookieName(projectId: string): string {
  return `a_session_${projectId}`;
}

/**
 * The cookies (and `X-Fallback-Cookies` header) that hand a new session to a browser. An API key
 * caller gets none: it receives the session's secret in the body instead.
 */
export function sessionCookies(
  ctx: RequestContext,
  cookieValue: string,
  expire: string,
): Pick<Reply, 'cookies' | 'headers'> {
  if (ctx.identity.kind === 'key') return { cookies: [], headers: {} };
  const name = sessionCookieName(ctx.backend.config.projectId);
  const expires = new Date(expire);
  const cookies: Cookie[] = [
    { name, value: cookieValue, expires, httpOnly: true, sameSite: 'None' },
    { name: `${name}_legacy`, value: cookieValue, expires, httpOnly: true },
  ];
  return { cookies, headers: { 'X-Fallback-Cookies': JSON.stringify({ [name]: cookieValue }) } };
}

/** Cookies and header that clear the session of a browser (signing out). */
export function clearedSessionCookies(projectId: string): Pick<Reply, 'cookies' | 'headers'> {
  const name = sessionCookieName(projectId);
  const past = new Date(0);
  return {
    cookies: [
      { name, value: '', expires: past, httpOnly: true, sameSite: 'None' },
      { name: `${name}_legacy`, value: '', expires: past, httpOnly: true },
    ],
    headers: { 'X-Fallback-Cookies': '[]' },
  };
}
