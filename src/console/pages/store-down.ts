import type { Route } from '../../channels/http/api-routes.js';
import { isStoreUnavailable } from '../../store/store-unavailable.js';
import { send } from './console-http.js';

/** When a browser should try again while the store is down (as the API's Retry-After). */
const RETRY_AFTER_SECONDS = 5;

/**
 * The console's routes with one answer for a store that cannot be reached (the embedded database closed or
 * stopped, PostgreSQL down): 503, Retry-After and a plain message, from every page, form and sign-in, instead of
 * the 500 of an unexpected error. Nothing was changed by the request; the same request may work later.
 */
export function unavailableWhileStoreDown(route: Route): Route {
  return async (req, res) => {
    try {
      return await route(req, res);
    } catch (error) {
      // A streamed export that broke off half-way cannot change its status: the server's boundary ends it.
      if (!isStoreUnavailable(error) || res.headersSent) throw error;
      return send(
        res,
        503,
        'The Candor console cannot reach its database right now, so nothing was read or changed. Try again in a minute; /healthz says what is failing.',
        'text/plain; charset=utf-8',
        { 'retry-after': String(RETRY_AFTER_SECONDS) },
      );
    }
  };
}
