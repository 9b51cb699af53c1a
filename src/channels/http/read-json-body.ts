import type { IncomingMessage } from 'node:http';

import { CandorError } from '../../kernel/errors.js';

/** Reads a JSON body up to `limit` bytes; 413 beyond it, 400 for anything that is not JSON. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new CandorError('input_invalid', 'Send the body as JSON with Content-Type: application/json.', { status: 415 });
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new CandorError('input_invalid', `The body is larger than ${limit} bytes.`, { status: 413 });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new CandorError('input_invalid', `The body is larger than ${limit} bytes.`, { status: 413 });
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new CandorError('input_invalid', 'The body is not valid JSON.', { status: 400 });
  }
}
