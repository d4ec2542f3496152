import { Button } from 'antd';
import { observer } from 'mobx-react-lite';
import { FormattedMessage } from 'react-intl';
import { useStore } from '../../../src/core/stores/root';
import { SECOND_FACTOR_LINK_STYLE, SecondFactorForm } from '../../../src/core/ui/SecondFactorForm';

/**
 * The sign-in's second step (issue 41): the account's factor (the app's code, a passkey or security key, a recovery
 * code) on the core's form, and "Back" to start over. Shown after a first step that answered `second_factor`, or in
 * the first render of a third-party sign-in that came back for it.
 */
export const SecondFactorStep = observer(function SecondFactorStep() {
  const login = useStore('login');
  const step = login.secondFactor;
  if (!step) return null;
  return (
    <SecondFactorForm
      methods={step.methods}
      submitting={login.saving}
      passkeyPending={login.passkeyPending}
      resetKey={login.factorRound}
      onCode={(proof) => void login.answerWithCode(proof)}
      onPasskey={() => void login.answerWithPasskey()}
      onSwitch={() => login.clearFailure()}
      footer={
        <Button
          type="link"
          size="small"
          style={SECOND_FACTOR_LINK_STYLE}
          disabled={login.saving}
          onClick={() => login.startOver()}
        >
          <FormattedMessage id="login.secondFactor.back" />
        </Button>
      }
    />
  );
});
