import { describe, expect, it } from 'vitest';

import { loadConfig } from '../../../src/config.js';
import { sourceUrlFor } from '../../../src/kb/ingest/source-urls.js';
import { CandorError } from '../../../src/kernel/errors.js';

/** The message of the CandorError loadConfig throws for `env` (fails the test when it does not throw one). */
function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(CandorError);
    return (error as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('CANDOR_SOURCE_URLS', () => {
  it('is read at start-up as folder → base URL, and is empty when unset', () => {
    const urls = '{"medishield-life":"https://example.gov.sg/booklet.pdf","handbook/":"https://intranet.example.com/handbook/"}';
    expect(loadConfig({ CANDOR_SOURCE_URLS: urls }).kb.sourceUrls).toEqual({
      'medishield-life': 'https://example.gov.sg/booklet.pdf',
      'handbook/': 'https://intranet.example.com/handbook/',
    });
    expect(loadConfig({}).kb.sourceUrls).toEqual({});
  });

  it('stops start-up naming the setting when the value is not a JSON object of http(s) URLs', () => {
    expect(configError({ CANDOR_SOURCE_URLS: '{medishield-life: https://x}' })).toMatch(
      /CANDOR_SOURCE_URLS: "\{medishield-life: https:\/\/x\}" is not a JSON object of folder → http\(s\) base URL \(this is not valid JSON\); for example CANDOR_SOURCE_URLS='\{/,
    );
    expect(configError({ CANDOR_SOURCE_URLS: '["https://example.org/"]' })).toMatch(/CANDOR_SOURCE_URLS: "\[.*\]" is not a JSON object/);
    const message = configError({
      CANDOR_SOURCE_URLS: '{"docs":"javascript:alert(1)","ok":"https://example.org/","ftp":"ftp://example.org/a"}',
    });
    expect(message).toContain('is not valid: folder "docs" has no http(s) URL as its base');
    expect(message).toContain('is not valid: folder "ftp" has no http(s) URL as its base');
    expect(message).not.toContain('folder "ok"');
  });
});

describe('sourceUrlFor', () => {
  const urls = {
    'medishield-life': 'https://example.gov.sg/booklet.pdf',
    'handbook/': 'https://intranet.example.com/handbook/',
    'handbook/hr': 'https://intranet.example.com/hr.pdf',
  };

  it('gives every document below a folder the base as it is, or the base and the rest of its path when it ends with "/"', () => {
    expect(sourceUrlFor({ key: 'medishield-life/page_8.txt', folder: 'kb' }, urls)).toBe('https://example.gov.sg/booklet.pdf');
    expect(sourceUrlFor({ key: 'handbook/it/laptop policy.md', folder: 'kb' }, urls)).toBe(
      'https://intranet.example.com/handbook/it/laptop%20policy.md',
    );
  });

  it('matches the ingested folder’s own name, prefers the longest folder, and gives null outside every folder', () => {
    // `candor ingest examples/kb/medishield-life`: the keys are the page names
    expect(sourceUrlFor({ key: 'page_8.txt', folder: 'medishield-life' }, urls)).toBe('https://example.gov.sg/booklet.pdf');
    expect(sourceUrlFor({ key: 'handbook/hr/leave.md', folder: 'kb' }, urls)).toBe('https://intranet.example.com/hr.pdf');
    expect(sourceUrlFor({ key: 'other/notes.md', folder: 'kb' }, urls)).toBeNull();
    expect(sourceUrlFor({ key: 'notes.md', folder: 'kb' }, { '.': 'https://example.org/kb/' })).toBe('https://example.org/kb/notes.md');
  });
});
