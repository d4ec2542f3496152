import { ErrorPage } from './errors/ErrorPage';

/** The fallback for any unknown path. */
export default function NotFoundPage() {
  return <ErrorPage type="404" />;
}
