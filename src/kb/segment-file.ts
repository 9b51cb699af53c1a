import { createHash } from 'node:crypto';
import { setImmediate as turn } from 'node:timers/promises';

import type { Bm25Arrays } from '../core/retrieval/bm25-builder.js';
import { FactSegment } from './fact-segment.js';
import type { FactTableParts, RunColumnParts } from './fact-table.js';

/** The first bytes of a segment file; a file without them is not one. */
const MAGIC = Buffer.from('CANDORSEG1\n');
/** Bumped when the layout or what an index reads of a fact changes: a file of another format is rebuilt, not read. */
export const SEGMENT_FORMAT = 1;

const ARRAY_TYPES = { Uint8Array, Uint16Array, Uint32Array, Int32Array, Float64Array } as const;
type ArrayTypeName = keyof typeof ARRAY_TYPES;
type AnyArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

interface Header {
  readonly format: number;
  readonly kbId: number;
  readonly facts: number;
  readonly totalLength: number;
  readonly boundAvgdl: number;
  readonly arrays: readonly { readonly name: string; readonly type: ArrayTypeName; readonly offset: number; readonly length: number }[];
  /** The run columns' values (JSON), after the arrays. */
  readonly runs: { readonly offset: number; readonly bytes: number };
  /** SHA-256 of everything after the header. */
  readonly sha256: string;
}

/** A segment as stored: its facts and its BM25 arrays. */
export interface SegmentContents {
  readonly kbId: number;
  readonly facts: FactSegment;
  readonly arrays: Bm25Arrays;
}

/**
 * A segment file's bytes: a magic line, the header's length and the header (JSON: arrays, offsets, checksum),
 * then each typed array (BM25's, the fact table's columns) at an 8-byte aligned offset, then the run columns'
 * values (JSON: a run per section or document, not per fact). Read back with readSegmentFile: nothing per fact
 * is parsed, the arrays are used as they are.
 */
export function segmentFileBytes(segment: SegmentContents): Buffer[] {
  const facts = segment.facts.parts();
  const named = [...arraysOf(segment.arrays), ...factArraysOf(facts.table, facts.previous, facts.next)];
  const runValues = Object.fromEntries(Object.entries(facts.table.runColumns).map(([name, column]) => [name, column.values]));
  const rows = Buffer.from(JSON.stringify(runValues));
  const body: Buffer[] = [];
  const placed: Header['arrays'][number][] = [];
  let offset = 0;
  for (const [name, array] of named) {
    const type = array.constructor.name as ArrayTypeName;
    placed.push({ name, type, offset, length: array.length });
    const bytes = Buffer.from(array.buffer, array.byteOffset, array.byteLength);
    const padded = align(bytes.length);
    body.push(bytes, Buffer.alloc(padded - bytes.length));
    offset += padded;
  }
  body.push(rows);
  const hash = createHash('sha256');
  for (const part of body) hash.update(part);
  const header: Header = {
    format: SEGMENT_FORMAT,
    kbId: segment.kbId,
    facts: segment.facts.size,
    totalLength: segment.arrays.totalLength,
    boundAvgdl: segment.arrays.boundAvgdl,
    arrays: placed,
    runs: { offset, bytes: rows.length },
    sha256: hash.digest('hex'),
  };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const lead = MAGIC.length + 4 + headerBytes.length;
  const prefix = Buffer.alloc(align(lead));
  MAGIC.copy(prefix, 0);
  prefix.writeUInt32LE(headerBytes.length, MAGIC.length);
  headerBytes.copy(prefix, MAGIC.length + 4);
  return [prefix, ...body];
}

/**
 * The segment a file holds, or the reason it cannot be trusted (not a segment file, another format or KB,
 * truncated, or its checksum differs): such a file is rebuilt from the store, never read in part.
 */
export async function readSegmentFile(file: Buffer, kbId: number): Promise<SegmentContents | { readonly damaged: string }> {
  if (file.length < MAGIC.length + 4 || !file.subarray(0, MAGIC.length).equals(MAGIC)) return { damaged: 'not a segment file' };
  const headerLength = file.readUInt32LE(MAGIC.length);
  let header: Header;
  try {
    header = JSON.parse(file.subarray(MAGIC.length + 4, MAGIC.length + 4 + headerLength).toString('utf8')) as Header;
  } catch {
    return { damaged: 'its header cannot be read' };
  }
  if (header.format !== SEGMENT_FORMAT) return { damaged: `format ${header.format}, not ${SEGMENT_FORMAT}` };
  if (header.kbId !== kbId) return { damaged: `it belongs to KB ${header.kbId}` };
  const start = align(MAGIC.length + 4 + headerLength);
  const body = file.subarray(start);
  if (body.length !== header.runs.offset + header.runs.bytes) return { damaged: 'it is truncated' };
  if ((await sha256InSlices(body)) !== header.sha256) return { damaged: 'its checksum differs' };
  const arrays: Record<string, AnyArray> = {};
  for (const { name, type, offset, length } of header.arrays) {
    const Type = ARRAY_TYPES[type];
    const bytes = body.subarray(offset, offset + length * Type.BYTES_PER_ELEMENT);
    // The file is nearly all arrays: used in place where aligned (a large file is read into memory of its own),
    // so loading costs the file's size once; copied otherwise.
    if (bytes.byteOffset % Type.BYTES_PER_ELEMENT === 0) {
      arrays[name] = new Type(bytes.buffer as ArrayBuffer, bytes.byteOffset, length);
      continue;
    }
    const array = new Type(length);
    new Uint8Array(array.buffer).set(bytes);
    arrays[name] = array;
  }
  const values = JSON.parse(body.toString('utf8', header.runs.offset)) as Record<string, (string | null)[]>;
  const runColumns = Object.fromEntries(
    Object.entries(values).map(([name, column]) => [name, { values: column, runs: arrays[`runs.${name}`] as Uint32Array }]),
  ) as unknown as Record<string, RunColumnParts>;
  const text = (name: string) => ({
    bytes: arrays[`${name}.bytes`] as Uint8Array,
    offsets: arrays[`${name}.offsets`] as Float64Array,
    nulls: arrays[`${name}.nulls`] as Uint8Array,
  });
  const table = {
    ids: arrays['facts.ids'],
    confidences: arrays['facts.confidences'],
    texts: text('facts.texts'),
    externalIds: text('facts.externalIds'),
    runColumns,
  } as unknown as FactTableParts;
  const facts = FactSegment.of({ table, previous: arrays['facts.previous'] as Int32Array, next: arrays['facts.next'] as Int32Array });
  const bm25 = {
    terms: { bytes: arrays['terms.bytes'], offsets: arrays['terms.offsets'], slots: arrays['terms.slots'] },
    keys: arrays['keys'],
    factTerms: arrays['factTerms'],
    factStart: arrays['factStart'],
    postingStart: arrays['postingStart'],
    postingFacts: arrays['postingFacts'],
    postingTfs: arrays['postingTfs'],
    lengths: arrays['lengths'],
    termBound: arrays['termBound'],
    totalLength: header.totalLength,
    boundAvgdl: header.boundAvgdl,
  } as unknown as Bm25Arrays;
  return { kbId, facts, arrays: bm25 };
}

/** Bytes hashed per turn of the event loop (about 10 ms here). */
const HASH_SLICE = 8 * 1024 * 1024;

/**
 * SHA-256 of the bytes, hex, a slice per turn of the event loop: a segment is hundreds of MB, and hashing it at
 * once would hold the loop for most of a second (Web Crypto's digest would not, but it copies the whole input).
 */
async function sha256InSlices(bytes: Uint8Array): Promise<string> {
  const hash = createHash('sha256');
  for (let at = 0; at < bytes.length; at += HASH_SLICE) {
    hash.update(bytes.subarray(at, at + HASH_SLICE));
    if (at + HASH_SLICE < bytes.length) await turn();
  }
  return hash.digest('hex');
}

function arraysOf(a: Bm25Arrays): [string, AnyArray][] {
  return [
    ['terms.bytes', a.terms.bytes],
    ['terms.offsets', a.terms.offsets],
    ['terms.slots', a.terms.slots],
    ['keys', a.keys],
    ['factTerms', a.factTerms],
    ['factStart', a.factStart],
    ['postingStart', a.postingStart],
    ['postingFacts', a.postingFacts],
    ['postingTfs', a.postingTfs],
    ['lengths', a.lengths],
    ['termBound', a.termBound],
  ];
}

function factArraysOf(table: FactTableParts, previous: Int32Array, next: Int32Array): [string, AnyArray][] {
  const text = (name: string, column: FactTableParts['texts']): [string, AnyArray][] => [
    [`${name}.bytes`, column.bytes],
    [`${name}.offsets`, column.offsets],
    [`${name}.nulls`, column.nulls],
  ];
  return [
    ['facts.ids', table.ids],
    ['facts.confidences', table.confidences],
    ...text('facts.texts', table.texts),
    ...text('facts.externalIds', table.externalIds),
    ['facts.previous', previous],
    ['facts.next', next],
    ...Object.entries(table.runColumns).map(([name, column]): [string, AnyArray] => [`runs.${name}`, column.runs]),
  ];
}

function align(n: number): number {
  return Math.ceil(n / 8) * 8;
}
