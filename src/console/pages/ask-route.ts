import type { Ask } from '../../ask/ask-service.js';
import { CandorError } from '../../kernel/errors.js';
import { askPage } from './ask-page.js';
import type { ConsoleRequest } from './console-context.js';

/**
 * `/ask`: the ask box, and a question posted from it asked through the one ask path (channel "console", the
 * viewer as its user); an error the asker can act on is shown on the page with its status, and a reply that
 * could not be recorded answers 503.
 */
export async function askRoute(deps: { ask: Ask; defaultKb: string }, r: ConsoleRequest): Promise<true> {
  const { kbs, kb } = r;
  if (!r.form) return r.page('Ask', '/ask', askPage(kbs, kb ?? deps.defaultKb, '', {}, r.csrf), { kb: kb ?? deps.defaultKb });
  const question = r.form.get('question') ?? '';
  const asked = r.form.get('kb') || deps.defaultKb;
  try {
    const decision = await deps.ask({ question, kb: asked, channel: 'console', userId: r.user === 'token' ? undefined : r.user });
    // Not recorded (the database is down): the fail-closed reply, with the API's 503, so the asker knows to come back.
    const status = decision.interactionId === null ? 503 : 200;
    return r.page('Ask', '/ask', askPage(kbs, asked, question, { decision }, r.csrf), { kb: asked, status });
  } catch (error) {
    if (!(error instanceof CandorError) || error.status >= 500) throw error;
    return r.page('Ask', '/ask', askPage(kbs, asked, question, { error: error.message }, r.csrf), { status: error.status, kb: asked });
  }
}
