import { act } from '@testing-library/react';
import { notification } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultShowServerError, defaultTranslate } from './client';
import { RequestError } from './errors';

afterEach(() => {
  notification.destroy();
});

describe('default server-error display', () => {
  it('shows an antd notification titled in Chinese by default with the requestId as content', async () => {
    const error = new RequestError({ status: 500, message: 'boom', url: '/x', method: 'GET', requestId: 'req-42' });
    await act(async () => {
      defaultShowServerError({
        title: defaultTranslate('core.request.systemException'),
        requestId: error.requestId,
        error,
      });
    });
    await vi.waitFor(() => {
      expect(document.body.textContent).toContain('系统异常，请重试');
      expect(document.body.textContent).toContain('req-42');
    });
  });
});
