import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's poppler-utils (`.ci/run` installs it); HOSTPAY_PDFTOTEXT names another binary. */
const PDFTOTEXT = process.env.HOSTPAY_PDFTOTEXT ?? '/usr/bin/pdftotext';

/**
 * The text of a PDF as `pdftotext -layout` extracts it (UTF-8). Fails, never skips, without
 * the binary: a PDF nobody reads back is not tested.
 */
export function pdfText(pdf: Buffer, layout = true): string {
  if (!existsSync(PDFTOTEXT))
    throw new Error(`no pdftotext at ${PDFTOTEXT}: apt-get install -y poppler-utils (or set HOSTPAY_PDFTOTEXT)`);
  const dir = mkdtempSync(join(tmpdir(), 'hostpay-pdf-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    const args = [...(layout ? ['-layout'] : []), '-enc', 'UTF-8', file, '-'];
    return execFileSync(PDFTOTEXT, args, { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text with runs of white space made one space, for checks that do not care about layout. */
export const flat = (text: string) => text.replace(/\s+/g, ' ');
