import { describe, expect, it } from 'vitest';
import { fakeBackend, ok, serviceError } from '../../../tests/kit/fake-backend';
import { MEMBERS_TIMEOUT_MS } from './constants';
import { createMemberLookup, membersListUrl } from './members';

describe('member lookup', () => {
  it('uses the platform path normally and the organisation path in private deployments', () => {
    expect(membersListUrl(false, 'o1')).toBe('/api/members/list');
    expect(membersListUrl(true, 'o1')).toBe('/api/organizations/o1/members/list');
  });

  it('asks with userIds and its own 5000 ms timeout, mapping names by id', async () => {
    let timer = 0;
    const backend = fakeBackend(
      { 'GET /api/organizations/:org/members/list': ok({ members: [{ id: 'u1', name: 'Ann', avatar: '/a/u1.png' }] }) },
      {
        setTimer: (_fn, ms) => {
          timer = ms;
          return () => {};
        },
      },
    );
    const lookup = createMemberLookup(backend.client, { privateDeployment: true, orgId: () => 'org-7' });
    expect(await lookup(['u1', 'u2', 'u1'])).toEqual([
      { _userId: 'u1', name: 'Ann', avatar: '/a/u1.png' },
      { _userId: 'u2', name: '', avatar: null },
    ]);
    expect(backend.calls).toMatchObject([
      { method: 'GET', path: '/api/organizations/org-7/members/list', query: { userIds: 'u1,u2' } },
    ]);
    expect(timer).toBe(MEMBERS_TIMEOUT_MS);
    expect(MEMBERS_TIMEOUT_MS).toBe(5000);
  });

  it('yields empty names when the lookup fails', async () => {
    const backend = fakeBackend({
      'GET /api/members/list': () => {
        throw new TypeError('network down');
      },
    });
    const lookup = createMemberLookup(backend.client, { privateDeployment: false });
    expect(await lookup(['u1'])).toEqual([{ _userId: 'u1', name: '', avatar: null }]);
  });

  it('treats a 401 as no names, not as a lost session', async () => {
    let signedOut = 0;
    const backend = fakeBackend(
      { 'GET /api/members/list': serviceError(401, 'Unauthorized') },
      { onUnauthorized: () => signedOut++ },
    );
    expect(await createMemberLookup(backend.client, { privateDeployment: false })(['u1'])).toEqual([
      { _userId: 'u1', name: '', avatar: null },
    ]);
    expect(signedOut).toBe(0);
  });

  it('makes no call for an empty id list', async () => {
    const backend = fakeBackend();
    expect(await createMemberLookup(backend.client, { privateDeployment: false })([])).toEqual([]);
    expect(backend.calls).toHaveLength(0);
  });
});
