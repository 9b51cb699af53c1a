import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium, headless, with nothing that reaches for the network (the browser tests and the docs' screenshots). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
  });
}
