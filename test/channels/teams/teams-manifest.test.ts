import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { loadConfig } from '../../../src/config.js';

const dir = new URL('../../../deploy/teams/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('manifest.json', dir), 'utf8')) as {
  id: string;
  manifestVersion: string;
  icons: { color: string; outline: string };
  bots: Array<{ botId: string; scopes: string[]; commandLists: Array<{ commands: Array<{ title: string }> }> }>;
  webApplicationInfo?: { id: string; resource: string };
  authorization?: { permissions: { resourceSpecific: Array<{ name: string; type: string }> } };
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

  it('asks for the consent to read messages without a mention, which mapped channels answer by default', () => {
    // A Teams conversation in CANDOR_CHANNELS answers every message unless it says mentionOnly: Teams delivers
    // those only to a bot whose manifest asks for resource-specific consent (channels, and group chats).
    const [mapped] = loadConfig({ CANDOR_CHANNELS: JSON.stringify([{ teams: '19:abc@thread.tacv2', kb: 'it' }]) }).channels;
    expect(mapped?.mentionOnly).toBe(false);
    expect(manifest.authorization?.permissions.resourceSpecific).toEqual(
      expect.arrayContaining([
        { name: 'ChannelMessage.Read.Group', type: 'Application' },
        { name: 'ChatMessage.Read.Chat', type: 'Application' },
      ]),
    );
    // resource-specific consent needs webApplicationInfo: the bot's app id, and a resource Teams ignores but requires
    expect(manifest.webApplicationInfo?.id).toBe(manifest.id);
    expect(manifest.webApplicationInfo?.resource).toEqual(expect.stringMatching(/\S/));
  });

  it('ships icons of the sizes Teams requires (outline with an alpha channel)', () => {
    expect(pngHeader(manifest.icons.color)).toMatchObject({ width: 192, height: 192 });
    expect(pngHeader(manifest.icons.outline)).toEqual({ width: 32, height: 32, colorType: 6 });
  });
});
