import { act } from '@testing-library/react';
import { notification } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultShowServerError, defaultTranslate } from './client';
import { RequestError } from './errors';

afterEach(async () => {
  // Let antd's close animation and React's scheduled work finish before the DOM is torn down (half a second was not
  // always enough on a loaded machine: a render then ran after the window was gone).
  await act(async () => {
    notification.destroy();
    await new Promise((resolve) => setTimeout(resolve, 1500));
  });
  await act(async () => {});
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
    await vi.waitFor(
      () => {
        expect(document.body.textContent).toContain('系统异常，请重试');
        expect(document.body.textContent).toContain('req-42');
      },
      { timeout: 15000 },
    ); // the notification code is imported on first use
  });
});
