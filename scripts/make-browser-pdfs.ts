/**
 * Prints the HTML pages in test/kb/parse/browser-pdfs/ to PDF with headless Chromium, as a person printing
 * them from a browser would get them: the fixtures of the PDF table tests. Each page twice: NAME.pdf untagged
 * (Puppeteer's and Playwright's default), NAME.tagged.pdf tagged as Chrome's "Save as PDF" writes it (pdf.js
 * reads a tagged table's cells apart; an untagged one's narrow cells run together). Re-run after editing a page:
 *
 *   npx tsx scripts/make-browser-pdfs.ts [--chromium /usr/bin/chromium]
 *
 * Needs Debian's chromium and fonts-liberation (what .ci/run installs). The PDFs are committed, so the
 * tests never need a browser.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const DIR = fileURLToPath(new URL('../test/kb/parse/browser-pdfs/', import.meta.url));
const { values } = parseArgs({ options: { chromium: { type: 'string', default: '/usr/bin/chromium' } } });

const browser = await chromium.launch({ executablePath: values.chromium, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage();
  for (const html of readdirSync(DIR).filter((name) => name.endsWith('.html'))) {
    await page.goto(pathToFileURL(join(DIR, html)).href);
    for (const tagged of [false, true]) {
      const pdf = join(DIR, html.replace(/\.html$/, tagged ? '.tagged.pdf' : '.pdf'));
      // A4 with the print dialog's default margins and without its header and footer lines.
      await page.pdf({ path: pdf, tagged, format: 'A4', margin: { top: '1cm', bottom: '1cm', left: '1cm', right: '1cm' } });
      process.stdout.write(`${pdf}\n`);
    }
  }
} finally {
  await browser.close();
}
