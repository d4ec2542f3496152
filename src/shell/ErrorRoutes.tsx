import { AppLayout } from './AppLayout';
import { ErrorPage } from './errors/ErrorPage';

/** `/users/errors`: an error page inside the product frame (the extra wrapper). */
export default function UsersErrorsPage() {
  return (
    <AppLayout>
      <ErrorPage />
    </AppLayout>
  );
}
