import { ok, type FakeRoute } from '../../tests/kit/fake-backend';
import { TEST_USER } from '../../tests/kit/web';

/** The switch call, as the fake backend names it. */
export const SWITCH_ROUTE = 'PUT /uiless/api/sdk/users/lastWorkspace';

/**
 * The session's calls around a switch, for the chooser and guard tests: the switch remembers the organisation and
 * the reloaded `me` reports it, as the service does; the current organisation starts as `o1`.
 */
export function sessionRoutes(): Record<string, FakeRoute> {
  let current = 'o1';
  return {
    [SWITCH_ROUTE]: (r) => {
      current = (r.body as { organization_id: string }).organization_id;
      return ok({ organization_id: current });
    },
    'GET /individual/proxy/me': () => ok({ ...TEST_USER, organization_id: current }),
    'POST /uiless/api/apps:search': ok({ results: [] }),
    'GET /uiless/api/organizations/:id': (r) => ok({ id: r.params.id, name: `Org ${r.params.id}`, logo: null }),
  };
}
