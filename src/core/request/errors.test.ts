import { describe, expect, it, vi } from 'vitest';
import { REPORT_ONLY_NON_ERROR_STATUSES, reportOnly, shouldReport } from './errors';

const get = (url: string, method = 'GET') => ({ url, method });

describe('shouldReport ignore rules', () => {
  it('reports an ordinary failure', () => {
    expect(shouldReport({ status: 500, message: 'x' }, get('/individual/proxy/me'))).toBe(true);
    expect(shouldReport({ status: 400 }, get('/users/ajax/v1/my/tokens'))).toBe(true);
  });

  it.each([
    '/uiless/api/workitem/search',
    '/projex/api/work-items/list',
    '/uiless/api/workspace/recent',
    '/flow/api/members',
    '/uiless/api/flow/pipelines',
    '/uiless/api/navigation/5f0c1a2b3c4d5e6f7a8b9c01',
  ])('ignores 401 for work-item, workspace, flow and navigation request %s', (url) => {
    expect(shouldReport({ status: 401 }, get(url))).toBe(false);
    expect(shouldReport({ status: 403 }, get(url))).toBe(true);
  });

  it('still reports 401 on other URLs', () => {
    expect(shouldReport({ status: 401 }, get('/individual/proxy/me'))).toBe(true);
  });

  it.each([
    '/uiless/api/featureFlags',
    '/api/feature-flags/user',
    '/uiless/api/introPointState',
    '/api/account/import',
    '/api/accountImport',
  ])('ignores 403 for feature-flag, introPointState and account-import request %s', (url) => {
    expect(shouldReport({ status: 403 }, get(url))).toBe(false);
    expect(shouldReport({ status: 500 }, get(url))).toBe(true);
  });

  it.each([
    '/users/ajax/v1/my/emails:bind',
    '/users/ajax/v1/my/emails:rebind',
    '/uiless/proxy/codeup/api/v3/user/keys',
    '/codeup/api/v3/user/keys/12',
  ])('ignores 400 for e-mail bind and code-hosting key request %s', (url) => {
    expect(shouldReport({ status: 400 }, get(url))).toBe(false);
  });

  it('ignores 402 for metric requests and 409 for project verify', () => {
    expect(shouldReport({ status: 402 }, get('/uiless/api/insight/metric/cards'))).toBe(false);
    expect(shouldReport({ status: 402 }, get('/users/ajax/v1/my/tokens'))).toBe(true);
    expect(shouldReport({ status: 409 }, get('/uiless/api/projects/import:verify', 'POST'))).toBe(false);
    expect(shouldReport({ status: 409 }, get('/users/ajax/v1/my/tokens', 'POST'))).toBe(true);
  });

  it.each([0, -1, -2, -3])('ignores client pseudo-status %i (network, abort, timeout, other)', (status) => {
    expect(shouldReport({ status }, get('/individual/proxy/me'))).toBe(false);
  });

  it('ignores the add-on describe failure code', () => {
    expect(shouldReport({ status: 500, code: 'AS_ACK_ADDON_DESCRIBE_ADDONS_FAILED' }, get('/uiless/api/addons'))).toBe(
      false,
    );
  });

  it("ignores a last-workspace update reporting 'update failed' but not other last-workspace failures", () => {
    expect(
      shouldReport({ status: 500, message: 'update failed' }, get('/uiless/api/sdk/users/lastWorkspace', 'PUT')),
    ).toBe(false);
    expect(shouldReport({ status: 500, message: 'boom' }, get('/uiless/api/sdk/users/lastWorkspace', 'PUT'))).toBe(
      true,
    );
    expect(shouldReport({ status: 500, message: 'update failed' }, get('/individual/proxy/me', 'PUT'))).toBe(true);
  });

  it('ignores ResizeObserver and browser-extension errors', () => {
    expect(shouldReport({ message: 'ResizeObserver loop completed with undelivered notifications.' })).toBe(false);
    expect(shouldReport({ message: 'ResizeObserver loop limit exceeded' })).toBe(false);
    expect(shouldReport({ message: 'x', stack: 'Error: x\n at chrome-extension://abc/content.js:1:1' })).toBe(false);
    expect(shouldReport({ message: 'x', filename: 'moz-extension://abc/inject.js' })).toBe(false);
    expect(shouldReport({ message: 'x', stack: 'Error: x\n at https://app/main.js:1:1' })).toBe(true);
  });

  it('does not report nothing', () => {
    expect(shouldReport(undefined)).toBe(false);
  });
});

describe('reportOnly', () => {
  it('treats 400 and 401 as non-errors', () => {
    expect(REPORT_ONLY_NON_ERROR_STATUSES).toEqual([400, 401]);
    const report = vi.fn();
    expect(reportOnly({ status: 400 }, get('/individual/proxy/me'), report)).toBe(false);
    expect(reportOnly({ status: 401 }, get('/individual/proxy/me'), report)).toBe(false);
    expect(report).not.toHaveBeenCalled();
  });

  it('reports other failures unless ignored, and swallows reporter errors', () => {
    const report = vi.fn(() => {
      throw new Error('broken reporter');
    });
    expect(reportOnly({ status: 500 }, get('/individual/proxy/me'), report)).toBe(true);
    expect(report).toHaveBeenCalledTimes(1);
    expect(reportOnly({ status: -2 }, get('/individual/proxy/me'), report)).toBe(false);
    expect(reportOnly({ status: 403 }, get('/uiless/api/introPointState'), report)).toBe(false);
  });
});
