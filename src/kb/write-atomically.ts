import { open, rename } from 'node:fs/promises';

/** Writes the parts to a temporary file, flushes it and renames it over `path`: a crash leaves the old file or the new. */
export async function writeAtomically(path: string, parts: readonly Uint8Array[]): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    for (const part of parts) await handle.write(part);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
}
