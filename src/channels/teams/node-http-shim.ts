import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'botbuilder';

/** The request shape CloudAdapter.process reads: a parsed body, headers, method. */
export function shimRequest(req: IncomingMessage, body: Record<string, unknown> | undefined): Request {
  return { body, headers: req.headers, method: req.method };
}

/** The express-like response CloudAdapter.process writes to, over node:http. */
export function shimResponse(res: ServerResponse): Response {
  let status = 200;
  const headers: Record<string, string> = {};
  let payload: string | undefined;
  return {
    socket: res.socket,
    status(code: number) {
      status = code;
      return this;
    },
    header(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
      return this;
    },
    send(body: unknown) {
      if (body === undefined || body === null) return this;
      if (typeof body === 'string' || Buffer.isBuffer(body)) {
        payload = body.toString();
        headers['content-type'] ??= 'text/plain; charset=utf-8';
      } else {
        payload = JSON.stringify(body);
        headers['content-type'] ??= 'application/json; charset=utf-8';
      }
      return this;
    },
    end() {
      if (res.writableEnded) return this;
      res.writeHead(status, { ...headers, ...(payload === undefined ? {} : { 'content-length': String(Buffer.byteLength(payload)) }) });
      res.end(payload);
      return this;
    },
  };
}
