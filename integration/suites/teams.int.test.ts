import { ID, Teams as WebTeams, type AppwriteException } from 'appwrite';
import { Account, Client, Teams, Users } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import {
  backend,
  createUserClient,
  guestServerClient,
  serverClient,
  uniqueTestId,
  webClient,
} from '../support/clients.ts';

describe('teams and memberships', () => {
  it('creates memberships with roles through the server API and lists them for members', async () => {
    const teams = new Teams(serverClient());
    const team = await teams.create({ teamId: uniqueTestId('team'), name: 'Desk' });
    const ana = await createUserClient({ name: 'Ana' });
    const ben = await createUserClient({ name: 'Ben' });
    const membership = await teams.createMembership({
      teamId: team.$id,
      roles: ['staff'],
      userId: ana.userId,
    });
    expect(membership).toMatchObject({
      confirm: true,
      roles: ['staff'],
      userName: 'Ana',
      teamId: team.$id,
    });
    await teams.createMembership({ teamId: team.$id, roles: ['manager'], userId: ben.userId });

    const anaTeams = new Teams(ana.client);
    const list = await anaTeams.list();
    expect(list.teams.map((t) => t.$id)).toContain(team.$id);
    const members = await anaTeams.listMemberships({ teamId: team.$id });
    expect(members.total).toBe(2);
    expect(members.memberships.map((m) => [m.userName, m.roles])).toEqual([
      ['Ana', ['staff']],
      ['Ben', ['manager']],
    ]);
    expect((await anaTeams.get({ teamId: team.$id })).total).toBe(2);
  });

  it('hides a team from non-members and refuses their changes', async () => {
    const teams = new Teams(serverClient());
    const team = await teams.create({ teamId: uniqueTestId('team'), name: 'Private' });
    const outsider = await createUserClient();
    const error = await new Teams(outsider.client)
      .get({ teamId: team.$id })
      .catch((e: unknown) => e);
    expect((error as AppwriteException).type).toBe('team_not_found');
  });

  it('lets a member who is not owner list but not invite', async () => {
    const teams = new Teams(serverClient());
    const team = await teams.create({ teamId: uniqueTestId('team'), name: 'Desk' });
    const staff = await createUserClient();
    await teams.createMembership({ teamId: team.$id, roles: ['staff'], userId: staff.userId });
    const error = await new Teams(staff.client)
      .createMembership({
        teamId: team.$id,
        roles: ['staff'],
        email: `${uniqueTestId('i')}@example.test`,
      })
      .catch((e: unknown) => e);
    expect((error as AppwriteException).type).toBe('user_unauthorized');
  });

  it('makes the creator of a team through the client API its owner, who can change roles and remove members', async () => {
    const owner = await createUserClient({ name: 'Olivia' });
    const ownerTeams = new Teams(owner.client);
    const team = await ownerTeams.create({ teamId: ID.unique(), name: 'Shop' });
    const members = await ownerTeams.listMemberships({ teamId: team.$id });
    expect(members.memberships[0]).toMatchObject({
      userId: owner.userId,
      roles: ['owner'],
      confirm: true,
    });

    const staff = await createUserClient();
    const membership = await new Teams(serverClient()).createMembership({
      teamId: team.$id,
      roles: ['staff'],
      userId: staff.userId,
    });
    const promoted = await ownerTeams.updateMembership({
      teamId: team.$id,
      membershipId: membership.$id,
      roles: ['manager'],
    });
    expect(promoted.roles).toEqual(['manager']);
    await ownerTeams.deleteMembership({ teamId: team.$id, membershipId: membership.$id });
    const after = await ownerTeams.listMemberships({ teamId: team.$id });
    expect(after.memberships.map((m) => m.userId)).toEqual([owner.userId]);
  });

  it('invites by email as an unconfirmed membership that the invitee confirms with the secret', async () => {
    const owner = await createUserClient();
    const ownerTeams = new Teams(owner.client);
    const team = await ownerTeams.create({ teamId: ID.unique(), name: 'Shop' });
    const email = `${uniqueTestId('inv')}@example.test`;
    const invitation = await ownerTeams.createMembership({
      teamId: team.$id,
      roles: ['staff'],
      email,
      url: 'http://127.0.0.1:5173/join',
    });
    expect(invitation.confirm).toBe(false);
    const invitee = await new Users(serverClient()).list({
      queries: [`{"method":"equal","attribute":"email","values":["${email}"]}`],
    });
    expect(invitee.users[0]?.email).toBe(email);
    const wrong = await new WebTeams(webClient())
      .updateMembershipStatus({
        teamId: team.$id,
        membershipId: invitation.$id,
        userId: invitation.userId,
        secret: 'nope',
      })
      .catch((e: unknown) => e);
    expect((wrong as AppwriteException).type).toBe('team_invalid_secret');
  });

  it('makes an invited stranger an account with no password, which they then choose without an old one', async () => {
    const owner = await createUserClient();
    const team = await new Teams(owner.client).create({ teamId: ID.unique(), name: 'Shop' });
    const email = `${uniqueTestId('pw')}@example.test`;
    const invitation = await new Teams(owner.client).createMembership({
      teamId: team.$id,
      roles: ['staff'],
      email,
      name: 'Pat Invited',
      url: 'http://127.0.0.1:5173/join',
    });
    const users = new Users(serverClient());
    const invitee = await users.get({ userId: invitation.userId });
    expect(invitee).toMatchObject({ email, name: 'Pat Invited', passwordUpdate: '' });

    // Signed in (as accepting the invitation does), they set a password: no old one is asked.
    const { secret } = await users.createSession({ userId: invitee.$id });
    const connection = backend();
    const signedIn = new Client()
      .setEndpoint(connection.endpoint)
      .setProject(connection.projectId)
      .setSession(secret);
    const updated = await new Account(signedIn).updatePassword({ password: 'chosen-by-pat' });
    expect(updated.passwordUpdate).not.toBe('');
    const session = await new Account(guestServerClient()).createEmailPasswordSession({
      email,
      password: 'chosen-by-pat',
    });
    expect(session.userId).toBe(invitee.$id);

    // Once one is set, changing it needs the old one.
    const refused = await new Account(signedIn)
      .updatePassword({ password: 'someone-elses-choice' })
      .catch((e: unknown) => e);
    expect((refused as AppwriteException).type).toBe('user_invalid_credentials');
  });
});
