import { Button, Result } from 'antd';
import { FormattedMessage } from 'react-intl';

/** The fallback for any unknown path. */
export default function NotFoundPage() {
  return (
    <Result
      status="404"
      title="404"
      subTitle={<FormattedMessage id="shell.notFound.description" />}
      extra={
        <Button type="primary" href="/users/settings">
          <FormattedMessage id="shell.notFound.back" />
        </Button>
      }
    />
  );
}
