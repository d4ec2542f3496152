import { act, fireEvent } from '@testing-library/react';
import notification from 'antd/es/notification';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultShowServerError, defaultTranslate } from './client';
import { RequestError } from './errors';

afterEach(async () => {
  // Close the notification the code opened (`antd` itself is another copy of the module here, whose destroy closed
  // nothing) and end its leave animation as a browser would (happy-dom fires no transitionend): the notice unmounts with its
  // 4.5 s close timer, which otherwise could fire once the DOM was torn down.
  act(() => notification.destroy());
  await vi.waitFor(() => {
    const notice = document.querySelector('.ant-notification-notice');
    if (notice) fireEvent.transitionEnd(notice);
    expect(notice).toBeNull();
  });
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
