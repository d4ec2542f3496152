import { UploadOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button } from 'antd';
import { observer } from 'mobx-react-lite';
import { useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ActionResult } from '../../../src/core/stores/failure';
import type { ProfileStore } from '../store';
import { ProfileRow } from './ProfileRow';

/** Props of the avatar row. */
export interface AvatarRowProps {
  store: ProfileStore;
  avatar: string | null;
  notify: (result: ActionResult, successId: string) => void;
}

/** The avatar with upload (checked in the browser by size and content first) and 'restore default'. */
export const AvatarRow = observer(function AvatarRow({ store, avatar, notify }: AvatarRowProps) {
  const intl = useIntl();
  const input = useRef<HTMLInputElement>(null);
  const pick = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (file) notify(await store.uploadAvatar(file), 'profile.avatar.updated');
  };
  return (
    <ProfileRow
      testId="profile-avatar"
      label={<FormattedMessage id="profile.avatar.label" />}
      help={<FormattedMessage id="profile.avatar.hint" />}
      actions={
        <>
          <input
            ref={input}
            type="file"
            accept=".jpg,.jpeg,.png,.gif,image/jpeg,image/png,image/gif"
            hidden
            aria-label={intl.formatMessage({ id: 'profile.avatar.upload' })}
            data-testid="profile-avatar-input"
            onChange={(e) => void pick(e.target.files?.[0])}
          />
          <Button
            size="small"
            icon={<UploadOutlined />}
            loading={store.avatarSaving}
            onClick={() => input.current?.click()}
          >
            <FormattedMessage id="profile.avatar.upload" />
          </Button>
          <Button
            size="small"
            disabled={!avatar || store.avatarSaving}
            onClick={async () => notify(await store.restoreAvatar(), 'profile.avatar.restored')}
          >
            <FormattedMessage id="profile.avatar.restore" />
          </Button>
        </>
      }
    >
      <Avatar
        size={64}
        src={avatar || undefined}
        icon={<UserOutlined />}
        alt={intl.formatMessage({ id: 'profile.avatar.alt' })}
        data-testid="profile-avatar-image"
        data-custom={avatar ? 'true' : 'false'}
      />
    </ProfileRow>
  );
});
