/** The actions Appwrite appends to realtime channels (`documents.create`, `account.U.update`…). */
export const SUPPORTED_ACTIONS: readonly string[] = ['create', 'update', 'upsert', 'delete'];

/**
 * Appwrite's `Realtime::convertChannels`: the channels a subscription really listens on.
 *
 * - `account` stays, and a signed-in connection also gets `account.<userId>`;
 * - `account.<action>` becomes `account.<userId>.<action>` when signed in (a guest keeps the literal);
 * - every other `account.…` channel (another user's, or even one's own `account.<userId>`) is dropped;
 * - duplicates are removed; rewritten channels move to the end, as PHP's ordered maps do.
 */
export function convertChannels(channels: readonly string[], userId: string | null): string[] {
  const out = new Map<string, true>();
  for (const channel of channels) out.set(channel, true);
  for (const channel of [...out.keys()]) {
    if (channel === 'account') {
      if (userId) out.set(`account.${userId}`, true);
      continue;
    }
    if (!channel.startsWith('account.')) continue;
    const rest = channel.slice('account.'.length);
    if (SUPPORTED_ACTIONS.includes(rest)) {
      if (userId) {
        out.delete(channel);
        out.set(`account.${userId}.${rest}`, true);
      }
      continue;
    }
    out.delete(channel);
  }
  return [...out.keys()];
}

/**
 * Appwrite's `Realtime::rebindAccountChannels`: after in-band authentication (or a role
 * rebuild) a subscription's account channels follow the new user — a guest's literal
 * `account.<action>` becomes `account.<newUserId>.<action>`, and `account.<oldUserId>[.<action>]`
 * becomes `account.<newUserId>[.<action>]`.
 */
export function rebindAccountChannels(
  channels: readonly string[],
  oldUserId: string | null,
  newUserId: string | null,
): string[] {
  if (!newUserId || oldUserId === newUserId) return [...channels];
  return channels.map((channel) => {
    if (!channel.startsWith('account.')) return channel;
    const rest = channel.slice('account.'.length);
    if (!oldUserId) {
      return SUPPORTED_ACTIONS.includes(rest) ? `account.${newUserId}.${rest}` : channel;
    }
    if (rest === oldUserId) return `account.${newUserId}`;
    if (rest.startsWith(`${oldUserId}.`)) {
      const action = rest.slice(oldUserId.length + 1);
      if (SUPPORTED_ACTIONS.includes(action)) return `account.${newUserId}.${action}`;
    }
    return channel;
  });
}
