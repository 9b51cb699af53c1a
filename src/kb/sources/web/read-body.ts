import { describeLimit, formatBytes } from '../../../config/ingest-limits.js';
import { discard } from './web-request.js';

export type Body = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly reason: string };

/**
 * A response's body, read as it arrives and stopped, its connection let go, as soon as it passes `maxBytes`
 * (CANDOR_INGEST_MAX_FILE_BYTES): a 50 MB page costs at most the limit, never 50 MB. A declared Content-Length
 * over the limit is refused before anything is read. `truncate` keeps the first `maxBytes` instead of failing
 * (robots.txt: only its start is read). `explain` says why a read failed (a timeout, a reset).
 */
export async function readBody(response: Response, maxBytes: number, explain: (error: unknown) => string, truncate = false): Promise<Body> {
  const limit = (): string => describeLimit('maxFileBytes', maxBytes, formatBytes(maxBytes));
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (!truncate && Number.isFinite(declared) && declared > maxBytes) {
    await discard(response);
    return { ok: false, reason: `${formatBytes(declared)}, larger than ${limit()}` };
  }
  if (response.body === null) return { ok: true, bytes: new Uint8Array(0) };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (total + value.byteLength > maxBytes) {
        await reader.cancel().catch(() => undefined);
        if (!truncate) return { ok: false, reason: `larger than ${limit()} (stopped reading after ${formatBytes(total)})` };
        chunks.push(value.subarray(0, maxBytes - total));
        total = maxBytes;
        break;
      }
      chunks.push(value);
      total += value.byteLength;
    }
  } catch (error) {
    return { ok: false, reason: explain(error) };
  }
  return { ok: true, bytes: Buffer.concat(chunks, total) };
}
