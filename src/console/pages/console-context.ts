import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Param } from './console-filters.js';
import type { Html } from './html.js';

/** One signed-in console request, as every page handler receives it. */
export interface ConsoleRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  /** GET or HEAD. */
  readonly reading: boolean;
  /** The viewer: a basic-auth user, or "token" for the shared token. */
  readonly user: string;
  /** Whether the viewer may sign everyone out (holds the console token: see isAdmin). */
  readonly admin: boolean;
  /** The CSRF token the page's forms carry (null for a bearer-token viewer, who needs none). */
  readonly csrf: string | null;
  /** A posted form, its CSRF token already checked; null for reads. */
  readonly form: URLSearchParams | null;
  /** The KB chosen with `?kb=` (undefined: all); every navigation link keeps it. */
  readonly kb: string | undefined;
  readonly kbs: readonly string[];
  /** A query parameter as text that may reach SQL; undefined when absent or empty. */
  readonly q: Param;
  /** Sends a page in the console's frame; `kb` overrides the KB the selector shows (a page that always has one). */
  page(title: string, active: string, body: Html, options?: { status?: number; kb?: string | undefined }): true;
}

/** A page handler: true when it answered. */
export type ConsoleHandler = (request: ConsoleRequest) => Promise<boolean>;
