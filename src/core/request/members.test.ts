import { describe, expect, it, vi } from 'vitest';
import type { RequestClient, RequestResult } from './client';
import { MEMBERS_TIMEOUT_MS } from './constants';
import { RequestError } from './errors';
import { createMemberLookup, membersListUrl } from './members';

function fakeClient(result: RequestResult<unknown>) {
  const get = vi.fn(async () => result);
  return { client: { get } as unknown as RequestClient, get };
}

describe('member lookup', () => {
  it('uses the platform path normally and the organisation path in private deployments', () => {
    expect(membersListUrl(false, 'o1')).toBe('/api/members/list');
    expect(membersListUrl(true, 'o1')).toBe('/api/organizations/o1/members/list');
  });

  it('asks with userIds and its own 5000 ms timeout, mapping names by id', async () => {
    const { client, get } = fakeClient([null, [{ _userId: 'u1', name: 'Ann' }]]);
    const lookup = createMemberLookup(client, { privateDeployment: true, orgId: () => 'org-7' });
    expect(await lookup(['u1', 'u2', 'u1'])).toEqual([
      { _userId: 'u1', name: 'Ann' },
      { _userId: 'u2', name: '' },
    ]);
    expect(get).toHaveBeenCalledWith(
      '/api/organizations/org-7/members/list',
      { userIds: ['u1', 'u2'] },
      expect.objectContaining({ timeoutMs: 5000, handleUnauthorized: false }),
    );
    expect(MEMBERS_TIMEOUT_MS).toBe(5000);
  });

  it('yields empty names when the lookup fails', async () => {
    const error = new RequestError({ status: -2, message: 'timeout', url: '/api/members/list', method: 'GET' });
    const { client } = fakeClient([error, undefined]);
    const lookup = createMemberLookup(client, { privateDeployment: false });
    expect(await lookup(['u1'])).toEqual([{ _userId: 'u1', name: '' }]);
  });

  it('makes no call for an empty id list', async () => {
    const { client, get } = fakeClient([null, []]);
    expect(await createMemberLookup(client, { privateDeployment: false })([])).toEqual([]);
    expect(get).not.toHaveBeenCalled();
  });
});
