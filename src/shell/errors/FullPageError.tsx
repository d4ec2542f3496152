import { Button, Result } from 'antd';
import { FormattedMessage } from 'react-intl';

/** 'Sorry, the page you visited is abnormal' with a button that reloads the page. */
export function FullPageError() {
  return (
    <Result
      status="warning"
      title={<FormattedMessage id="shell.error.fullPage.title" />}
      subTitle={<FormattedMessage id="shell.error.fullPage.hint" />}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          <FormattedMessage id="shell.error.fullPage.reload" />
        </Button>
      }
    />
  );
}
