import net from 'node:net';
import PDFDocument from 'pdfkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type DocumentSpec, logoBytes, renderPdf } from '../../src/documents/index.js';
import { flat, pdfText } from './pdf-text.js';

/** A 1×1 PNG. */
const PNG_LOGO =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function spec(overrides: Partial<DocumentSpec> = {}): DocumentSpec {
  return {
    title: 'Receipt',
    banner: 'Sandbox: no real money was moved.',
    seller: {
      name: 'Книжная лавка Σοφία',
      logo: null,
      details: ['ООО «Лавка»', 'ул. Пушкина 10, Москва', null, 'Tax ID RU7701234567', '', 'help@lavka.example'],
    },
    facts: [
      { label: 'Receipt number', value: 'RCPT-000042' },
      { label: 'Date paid', value: '29 November 2026' },
    ],
    blocks: [
      { kind: 'heading', text: 'Items' },
      {
        kind: 'table',
        columns: [
          { label: 'Description', width: 3 },
          { label: 'Qty', align: 'right' },
          { label: 'Amount', align: 'right' },
        ],
        rows: [
          ['Βιβλίο: Ἰλιάς', '2', '25.50 EUR'],
          ['Доставка', '1', '4.99 EUR'],
        ],
      },
      { kind: 'totals', rows: [{ label: 'Total', value: '30.49 EUR', strong: true }] },
      {
        kind: 'table',
        columns: [{ label: 'Transaction', width: 4 }],
        rows: [[{ text: `0x${'ab'.repeat(32)}`, url: `https://etherscan.io/tx/0x${'ab'.repeat(32)}` }]],
      },
      { kind: 'text', lines: ['1 EUR = 1.0832 USDT'] },
      { kind: 'links', links: [{ label: 'View online', url: 'https://pay.example/pay/chk_1/receipt' }] },
    ],
    footer: ['Thank you.'],
    createdAt: new Date('2026-11-29T10:00:00Z'),
    ...overrides,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('documents: renderPdf', () => {
  it('writes every figure as text, Cyrillic and Greek included, with the font embedded', async () => {
    const pdf = await renderPdf(spec());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = flat(pdfText(pdf));
    for (const figure of [
      'Sandbox: no real money was moved.',
      'Книжная лавка Σοφία',
      'ООО «Лавка»',
      'ул. Пушкина 10, Москва',
      'Tax ID RU7701234567',
      'help@lavka.example',
      'Receipt',
      'RCPT-000042',
      '29 November 2026',
      'Βιβλίο: Ἰλιάς',
      'Доставка',
      '25.50 EUR',
      '4.99 EUR',
      '30.49 EUR',
      `0x${'ab'.repeat(32)}`,
      '1 EUR = 1.0832 USDT',
      'View online',
      'Thank you.',
    ]) {
      expect(text).toContain(figure);
    }
    const raw = pdf.toString('latin1');
    expect(raw).toMatch(/\/FontFile2/); // a TrueType font program embedded…
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans/); // …as a subset of DejaVu Sans
    expect(raw).toContain(`/URI (https://etherscan.io/tx/0x${'ab'.repeat(32)})`);
    expect(raw).toContain('/URI (https://pay.example/pay/chk_1/receipt)');
  });

  it('renders the same bytes for the same spec', async () => {
    const a = await renderPdf(spec());
    const b = await renderPdf(spec());
    expect(a.equals(b)).toBe(true);
    const c = await renderPdf(spec({ createdAt: new Date('2026-11-30T10:00:00Z') }));
    expect(c.equals(a)).toBe(false);
  });

  it('embeds a data: PNG logo', async () => {
    const pdf = await renderPdf(spec({ seller: { ...spec().seller, logo: PNG_LOGO } }));
    expect(pdf.toString('latin1')).toMatch(/\/Subtype \/Image/);
  });

  it('leaves an https logo out and opens no connection while rendering', async () => {
    const connects: unknown[] = [];
    const original = net.Socket.prototype.connect;
    vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
      connects.push(args[0]);
      return (original as (...a: unknown[]) => net.Socket).apply(this, args);
    });
    const images = vi.spyOn(PDFDocument.prototype, 'image');
    const pdf = await renderPdf(spec({ seller: { ...spec().seller, logo: 'https://cdn.example/logo.png' } }));
    expect(connects).toEqual([]);
    expect(images).not.toHaveBeenCalled();
    expect(pdf.toString('latin1')).not.toMatch(/\/Subtype \/Image/);
    expect(pdf.toString('latin1')).not.toContain('cdn.example');
    // The spy is live: a logo that is embedded goes through it, as bytes, never a URL or a path.
    await renderPdf(spec({ seller: { ...spec().seller, logo: PNG_LOGO } }));
    expect(images).toHaveBeenCalledTimes(1);
    expect(Buffer.isBuffer(images.mock.calls[0]![0])).toBe(true);
  });

  it('links only https URLs', async () => {
    const pdf = await renderPdf(
      spec({
        blocks: [
          { kind: 'links', links: [{ label: 'bad', url: 'javascript:alert(1)' }] },
          { kind: 'table', columns: [{ label: 'Tx' }], rows: [[{ text: 'deadbeef', url: 'http://plain.example/tx' }]] },
        ],
      }),
    );
    const raw = pdf.toString('latin1');
    expect(raw).not.toContain('javascript:');
    expect(raw).not.toContain('plain.example');
    expect(flat(pdfText(pdf))).toContain('deadbeef');
  });

  it('breaks long tables onto new pages', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => [`Line ${i + 1}`, `${i + 1}.00 EUR`]);
    const pdf = await renderPdf(
      spec({ blocks: [{ kind: 'table', columns: [{ label: 'Item' }, { label: 'Amount', align: 'right' }], rows }] }),
    );
    const text = pdfText(pdf);
    expect(text.split('\f').filter((p) => p.trim() !== '').length).toBeGreaterThan(1);
    expect(flat(text)).toContain('Line 120');
    expect(flat(text)).toContain('120.00 EUR');
  });
});

describe('documents: logoBytes', () => {
  it('keeps a PNG or JPEG data: URL whose bytes match, nothing else', () => {
    expect(logoBytes(PNG_LOGO)?.subarray(1, 4).toString()).toBe('PNG');
    expect(logoBytes('https://cdn.example/logo.png')).toBeNull();
    expect(logoBytes('data:image/webp;base64,UklGRg==')).toBeNull();
    expect(logoBytes('data:image/svg+xml;base64,PHN2Zz4=')).toBeNull();
    expect(logoBytes('data:image/jpeg;base64,iVBORw0KGgo=')).toBeNull(); // PNG bytes declared as JPEG
    expect(logoBytes('/etc/passwd')).toBeNull();
    expect(logoBytes(null)).toBeNull();
  });
});
