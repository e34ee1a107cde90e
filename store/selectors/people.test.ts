import { describe, expect, it } from 'vitest';
import type { TeamMember } from '../records/people.ts';
import type { DeskState } from '../state.ts';
import { selectMemberNames } from './people.ts';

const member = (name: string): TeamMember => ({
  id: `m-${name}`,
  createdAt: 0,
  updatedAt: 0,
  userId: `u-${name}`,
  name,
  email: `${name.toLowerCase().replace(/\W+/g, '.')}@example.test`,
  role: 'staff',
  confirmed: true,
});

describe('selectMemberNames', () => {
  it('gives the members’ names, the same array until the members change', () => {
    const memberList = [member('Ana Silva'), member('Sim Kim (simulated)')];
    const state = { memberList } as unknown as DeskState;
    const names = selectMemberNames(state);
    expect(names).toEqual(['Ana Silva', 'Sim Kim (simulated)']);
    expect(selectMemberNames({ ...state } as DeskState)).toBe(names);
    const changed = { memberList: [...memberList, member('Sim Lou (simulated)')] };
    expect(selectMemberNames(changed as unknown as DeskState)).toEqual([
      ...names,
      'Sim Lou (simulated)',
    ]);
  });
});
