import { observer } from 'mobx-react-lite';
import { FormattedMessage } from 'react-intl';
import { SecondFactorForm } from '../../../src/core/ui/SecondFactorForm';
import type { ResetPasswordStore } from '../store';

/**
 * The step an account with a second factor answers before its new password (issue 41): the app's code, a passkey or
 * security key, or a recovery code, on the core's form; the answer goes with the reset. After a refused answer the
 * new password is kept, and the next answer resets at once.
 */
export const FactorStep = observer(function FactorStep({ store }: { store: ResetPasswordStore }) {
  const challenge = store.secondFactor;
  if (!challenge) return null;
  return (
    <>
      <p>
        <FormattedMessage id={store.passwordKept ? 'reset-password.factor.introKept' : 'reset-password.factor.intro'} />
      </p>
      <SecondFactorForm
        methods={challenge.methods}
        submitting={store.saving}
        passkeyPending={store.passkeyPending}
        resetKey={store.factorRound}
        onCode={(proof) => void store.answerWithCode(proof)}
        onPasskey={() => void store.answerWithPasskey()}
        onSwitch={() => store.clearFailure()}
        submitLabel={
          <FormattedMessage id={store.passwordKept ? 'reset-password.reset.submit' : 'reset-password.common.next'} />
        }
      />
    </>
  );
});
