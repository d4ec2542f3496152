import { AppLayout } from './AppLayout';
import { ErrorPage } from './errors/ErrorPage';

/**
 * The page of any unknown path (the service answers it with 404): the not-found page in the product frame, so a
 * signed-in member keeps the top bar (organisation, apps, bell) and a visitor sees the edition's brand and language.
 */
export default function NotFoundPage() {
  return (
    <AppLayout>
      <ErrorPage type="404" />
    </AppLayout>
  );
}
