import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dir = new URL('../../../deploy/teams/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('manifest.json', dir), 'utf8')) as {
  id: string;
  manifestVersion: string;
  icons: { color: string; outline: string };
  bots: Array<{ botId: string; scopes: string[]; commandLists: Array<{ commands: Array<{ title: string }> }> }>;
};

/** Width, height and colour type from a PNG's IHDR chunk. */
function pngHeader(file: string): { width: number; height: number; colorType: number } {
  const bytes = readFileSync(new URL(file, dir));
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), colorType: bytes[25]! };
}

describe('deploy/teams/manifest.json', () => {
  it('declares one bot whose id is the app id, in personal, team and group chats', () => {
    expect(manifest.manifestVersion).toBe('1.17');
    expect(manifest.bots).toHaveLength(1);
    expect(manifest.bots[0]!.botId).toBe(manifest.id);
    expect(manifest.bots[0]!.scopes.sort()).toEqual(['groupChat', 'personal', 'team']);
    expect(manifest.bots[0]!.commandLists[0]!.commands.map((c) => c.title)).toEqual(['help', 'status', 'ask', 'review here']);
  });

  it('ships icons of the sizes Teams requires (outline with an alpha channel)', () => {
    expect(pngHeader(manifest.icons.color)).toMatchObject({ width: 192, height: 192 });
    expect(pngHeader(manifest.icons.outline)).toEqual({ width: 32, height: 32, colorType: 6 });
  });
});
