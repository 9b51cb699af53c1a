import type { ServerResponse } from 'node:http';

import { EXPORT_FIELDS, type ExportedInteraction, type InteractionFilter } from '../interaction-list.js';
import { SECURITY_HEADERS, writeChunk } from './console-http.js';

/** The CSV header row: the export's fields in snake_case, as spreadsheets and pandas read them. */
const CSV_HEADER = EXPORT_FIELDS.map((f) => f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote, or a line break, quotes doubled. A text cell
 * a spreadsheet would read as a formula (starting with =, +, -, @, a tab or a carriage return) gets a leading
 * apostrophe first, so an asker's "=HYPERLINK(…)" stays text (OWASP CSV injection). Numbers are left as they are.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV record, CRLF-terminated. */
export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** One JSON line (U+2028/U+2029 escaped too, so a line-based reader never splits a record). */
export function jsonLine(row: ExportedInteraction): string {
  return `${JSON.stringify(Object.fromEntries(EXPORT_FIELDS.map((f) => [f, row[f]]))).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`)}\n`;
}

/**
 * Streams the interactions of a filter as CSV or JSON lines, batch by batch (never the whole table in memory),
 * at most `cap` rows, newest first. The `x-candor-export-cap` header says the cap; a CSV starts with a UTF-8
 * byte-order mark so that spreadsheet programs read accents right.
 */
export async function streamExport(
  res: ServerResponse,
  format: 'csv' | 'jsonl',
  rows: AsyncIterable<ExportedInteraction[]>,
  options: { readonly cap: number; readonly now: Date; readonly filter: InteractionFilter },
): Promise<true> {
  const stamp = options.now.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  const scope = options.filter.source === 'imported' ? 'imported' : options.filter.source === 'all' ? 'all' : 'live';
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    'content-disposition': `attachment; filename="candor-interactions-${scope}-${stamp}.${format}"`,
    'x-candor-export-cap': String(options.cap),
  });
  try {
    let open = await writeChunk(res, format === 'csv' ? `\uFEFF${csvRow(CSV_HEADER)}` : '');
    for await (const batch of rows) {
      if (!open) break;
      const text = batch.map((row) => (format === 'csv' ? csvRow(EXPORT_FIELDS.map((f) => row[f])) : jsonLine(row))).join('');
      open = await writeChunk(res, text);
    }
  } catch (error) {
    // Half an export must not look like a whole one: the connection is cut, not ended.
    res.destroy();
    throw error;
  }
  res.end();
  return true;
}
