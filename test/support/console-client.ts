/** A console user who signs in with basic auth. */
export interface BasicUser {
  readonly user: string;
  readonly password: string;
}

export const basicAuth = (who: BasicUser) => ({ authorization: `Basic ${Buffer.from(`${who.user}:${who.password}`).toString('base64')}` });

/**
 * Requests to a console over real HTTP as a browser's forms make them (redirects not followed), and the CSRF token
 * a signed-in page carries. `origin` is read per request: servers are started after the client is made.
 */
export function consoleClient(origin: () => string) {
  const get = (path: string, headers: Record<string, string>) => fetch(`${origin()}${path}`, { headers, redirect: 'manual' });
  const post = (path: string, form: Record<string, string>, headers: Record<string, string>) =>
    fetch(`${origin()}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
      redirect: 'manual',
    });
  const csrfOf = async (who: BasicUser) => /name="csrf" value="([\w-]+)"/.exec(await (await get('/ask', basicAuth(who))).text())?.[1] ?? '';
  return { get, post, csrfOf };
}
