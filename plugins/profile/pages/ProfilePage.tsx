import { Button, message, Select, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { failureText, type ActionResult } from '../../../src/core/stores/failure';
import { useStore, useStores } from '../../../src/core/stores/root';
import { AvatarRow } from '../components/AvatarRow';
import { EmailRow } from '../components/EmailRow';
import { PasswordModal } from '../components/PasswordModal';
import { ProfileRow } from '../components/ProfileRow';
import type { ProfileLanguage } from '../contract';
import type { ColorScheme } from '../../../schemas/color-scheme';

/** Personal information: login account, password, e-mail, language, appearance and avatar of the signed-in user. */
const ProfilePage = observer(function ProfilePage() {
  const { session } = useStores();
  const profile = useStore('profile');
  const intl = useIntl();
  const [messageApi, messageHolder] = message.useMessage();
  const [changingPassword, setChangingPassword] = useState(false);
  useEffect(() => {
    void profile.load();
  }, [profile]);

  const notify = (r: ActionResult, successId: string) => {
    if (r.ok) void messageApi.success(intl.formatMessage({ id: successId }));
    // Nothing to add for a response ≥ 500: the central notice (with its requestId) has said it.
    else if (r.failure) void messageApi.error(failureText(r.failure, (id) => intl.formatMessage({ id })));
  };
  const user = session.user;
  if (!user) return null;

  return (
    <section aria-labelledby="profile-title" data-testid="profile-page" style={{ maxWidth: 960 }}>
      {messageHolder}
      <Typography.Title id="profile-title" level={1} style={{ fontSize: 20, margin: '4px 0 8px' }}>
        <FormattedMessage id="profile.page.title" />
      </Typography.Title>
      <dl style={{ margin: 0 }}>
        <ProfileRow testId="profile-account" label={<FormattedMessage id="profile.account.label" />}>
          <Typography.Text data-testid="profile-account-value">{user.username}</Typography.Text>
        </ProfileRow>
        <ProfileRow
          testId="profile-password"
          label={<FormattedMessage id="profile.password.label" />}
          actions={
            <Button size="small" onClick={() => setChangingPassword(true)} disabled={profile.loading}>
              <FormattedMessage id="profile.password.modify" />
            </Button>
          }
        >
          <Typography.Text aria-label={intl.formatMessage({ id: 'profile.password.hidden' })}>••••••••</Typography.Text>
        </ProfileRow>
        <EmailRow store={profile} email={user.email} verified={user.email_verified} notify={notify} />
        <ProfileRow
          testId="profile-language"
          label={
            <label htmlFor="profile-language-select">
              <FormattedMessage id="profile.language.label" />
            </label>
          }
        >
          <Select<ProfileLanguage>
            id="profile-language-select"
            style={{ width: 220 }}
            value={session.locale}
            loading={profile.languageSaving}
            disabled={profile.languageSaving}
            onChange={async (v) => {
              const r = await profile.setLanguage(v);
              if (!r.ok) notify(r, '');
            }}
            options={[
              { value: 'zh_CN', label: intl.formatMessage({ id: 'profile.language.zh_CN' }) },
              { value: 'en_US', label: intl.formatMessage({ id: 'profile.language.en_US' }) },
            ]}
          />
        </ProfileRow>
        <ProfileRow
          testId="profile-appearance"
          label={
            <label htmlFor="profile-appearance-select">
              <FormattedMessage id="profile.appearance.label" />
            </label>
          }
        >
          <Select<ColorScheme>
            id="profile-appearance-select"
            style={{ width: 220 }}
            value={session.colorScheme}
            loading={profile.colorSchemeSaving}
            disabled={profile.colorSchemeSaving}
            onChange={async (v) => notify(await profile.setColorScheme(v), 'profile.appearance.saved')}
            options={[
              { value: 'system', label: intl.formatMessage({ id: 'profile.appearance.system' }) },
              { value: 'light', label: intl.formatMessage({ id: 'profile.appearance.light' }) },
              { value: 'dark', label: intl.formatMessage({ id: 'profile.appearance.dark' }) },
            ]}
          />
        </ProfileRow>
        <AvatarRow store={profile} avatar={user.avatar} notify={notify} />
      </dl>
      <PasswordModal
        open={changingPassword}
        proof={profile.passwordProof}
        directory={profile.directory}
        code={{
          sentTo: profile.codeSentTo,
          availableAt: profile.codeAvailableAt,
          sending: profile.emailSaving,
          onSend: () => profile.sendEmailCode('password'),
        }}
        saving={profile.passwordSaving}
        onSubmit={(n, given) => profile.changePassword(n, given)}
        onClose={(changed) => {
          setChangingPassword(false);
          if (changed) void messageApi.success(intl.formatMessage({ id: 'profile.password.success' }));
        }}
      />
    </section>
  );
});

export default ProfilePage;
