import { describe, expect, it } from 'vitest';
import { RequestError } from '../request/errors';
import { failureOf } from './failure';

const error = (status: number, code: string, message: string) =>
  new RequestError({ status, message, url: '/x', method: 'POST', code, data: { status, code, message } });

describe('failureOf', () => {
  it('shows nothing for a ReauthRequired the member cancelled (the dialog said it), even for a code the slice maps', () => {
    expect(failureOf(error(403, 'ReauthRequired', 'Please confirm it is you'), {}, 'x.failed')).toBeUndefined();
    expect(failureOf(error(403, 'ReauthRequired', 'Please confirm'), { ReauthRequired: 'x.reauth' }, 'x.failed')).toBe(
      undefined,
    );
  });
  it('still shows the service text of another 403', () => {
    expect(failureOf(error(403, 'Forbidden', 'No permission'), {}, 'x.failed')).toEqual({ text: 'No permission' });
  });
});
