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

/** `/login/errors`: a bare error page for failures before sign-in. */
export function LoginErrorsPage() {
  return (
    <main style={{ paddingTop: 48 }}>
      <ErrorPage />
    </main>
  );
}
