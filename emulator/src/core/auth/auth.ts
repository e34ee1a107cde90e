import type { Store } from '../db.ts';
import { secret as randomSecret } from '../ids.ts';
import { Keys } from './keys.ts';
import { Roles } from './roles.ts';
import { Sessions } from './sessions.ts';
import { Teams } from './teams.ts';
import { TokenSigner } from './tokens.ts';
import { Users } from './users.ts';

/**
 * Who a caller is, for every service: users, sessions (and their JWTs), API keys, teams with
 * their memberships, and the roles these give. Each part owns its tables; the roles of a user
 * are recomputed whenever a part changes them.
 */
export class Auth {
  readonly users: Users;
  readonly sessions: Sessions;
  readonly keys: Keys;
  readonly teams: Teams;
  readonly roles: Roles;
  private readonly store: Store;

  constructor(store: Store, projectId: string, bootstrapKey: string) {
    this.store = store;
    const signer = new TokenSigner(store.metaValue('jwt_secret', () => randomSecret(32)));
    const rolesChanged = (userId: string) => this.roles.changed(userId);
    this.roles = new Roles((userId) => this.teams.userMemberships(userId));
    this.users = new Users(store, rolesChanged);
    this.sessions = new Sessions(store, this.users, signer);
    this.keys = new Keys(store, projectId, bootstrapKey, signer);
    this.teams = new Teams(store, rolesChanged);
  }

  /** Deletes a user with their sessions and memberships (all or nothing). */
  deleteUser(id: string): void {
    this.store.transaction(() => {
      this.sessions.deleteAll(id);
      this.teams.deleteUserMemberships(id);
      this.users.delete(id);
    });
    this.roles.changed(id);
  }
}
