/**
 * The payment page's stylesheet, served as /pay/assets/pay-<hash>.css (assets.ts). Kept as a
 * string in a module so the compiled server and the CLI bundle carry it with no file to find at
 * run time. Mobile first (360 px), one column, system fonts (no font download), light and dark
 * from prefers-color-scheme; colours meet WCAG AA contrast on their backgrounds. Sides are
 * logical (inline-start/end, text-align start/end), so a right-to-left page (Arabic) mirrors;
 * code, addresses and transaction hashes read left to right in every language.
 */
export const PAGE_CSS = `
:root{color-scheme:light dark;--bg:#f4f5f7;--card:#fff;--fg:#16181d;--muted:#4a5160;--line:#d5d9e0;--accent:#0b57d0;--accent-fg:#fff;--ok:#0f6b2f;--ok-bg:#e3f4e8;--warn:#7a4a00;--warn-bg:#fff2d6;--bad:#a1121b;--bad-bg:#fde7e8;--info:#0b4aa8;--info-bg:#e3edfc;--banner:#5c3b00;--banner-bg:#ffd98a}
@media (prefers-color-scheme:dark){:root{--bg:#0f1115;--card:#181b21;--fg:#e9ecf1;--muted:#b5bcc8;--line:#363c47;--accent:#8ab4f8;--accent-fg:#0f1115;--ok:#8fdba6;--ok-bg:#173322;--warn:#f5c86b;--warn-bg:#3a2c0c;--bad:#ff9ea3;--bad-bg:#3d1518;--info:#a8c7fa;--info-bg:#132a4d;--banner:#1a1200;--banner-bg:#f5c86b}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
a{color:var(--accent)}
a:focus-visible,button:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.sandbox p{margin:0}
.lang{max-width:30rem;margin:0 auto;padding:.5rem 1rem 0;display:flex;justify-content:flex-end;position:relative;height:2.25rem}
.lang summary{cursor:pointer;font-size:.875rem;color:var(--muted);list-style:none;padding:.125rem .25rem;border-radius:6px}
.lang summary::-webkit-details-marker{display:none}
.lang ul{position:absolute;z-index:2;inset-inline-end:1rem;margin:.25rem 0 0;padding:.25rem 0;list-style:none;background:var(--card);border:1px solid var(--line);border-radius:8px;min-width:12rem}
.lang li a{display:block;padding:.375rem .75rem;text-decoration:none}
.lang a[aria-current]{font-weight:700}
.sandbox{margin:0;padding:.375rem 1rem;background:var(--banner-bg);color:var(--banner);font-weight:600;font-size:.8125rem;text-align:center}
main{max-width:30rem;margin:0 auto;padding:.75rem 1rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:.75rem 1rem;margin:0 0 .75rem}
.to{margin:0;color:var(--muted);font-size:.875rem}
h1{margin:0;font-size:1.375rem;line-height:1.3;overflow-wrap:anywhere}
.logo{display:block;height:48px;width:auto;max-width:100%;margin:0 0 .5rem;object-fit:contain}
h2{margin:0 0 .25rem;font-size:1.125rem}
.desc{margin:.25rem 0 0;overflow-wrap:anywhere;white-space:pre-line}
.amount{margin:.25rem 0 0;font-size:1.5rem;font-weight:700;font-variant-numeric:tabular-nums;overflow-wrap:anywhere}
.state{border-inline-start:6px solid var(--info);background:var(--info-bg)}
.state p{margin:.25rem 0 0}
[data-status=settled] .state{border-color:var(--ok);background:var(--ok-bg)}
[data-status=underpaid] .state,[data-status=processing] .state{border-color:var(--warn);background:var(--warn-bg)}
[data-status=expired] .state,[data-status=canceled] .state,[data-status=needs_review] .state,[data-status=invalid] .state{border-color:var(--bad);background:var(--bad-bg)}
.state .timer{margin:.25rem 0 0;font-variant-numeric:tabular-nums}
.timer time{font-weight:700}
.choices{display:flex;flex-wrap:wrap;gap:.5rem;margin:.5rem 0 .75rem;padding:0;list-style:none}
.network{margin:0;font-size:1rem;font-weight:600}
.network .change{font-weight:400;font-size:.875rem;margin-inline-start:.25rem;white-space:nowrap}
.choices a{display:inline-block;min-height:44px;padding:.6rem .9rem;border:1px solid var(--line);border-radius:999px;text-decoration:none;color:var(--fg)}
.choices a[aria-current]{border-color:var(--accent);box-shadow:inset 0 0 0 1px var(--accent);font-weight:600}
.label{margin:.5rem 0 .125rem;color:var(--muted);font-size:.875rem}
.big{margin:0;font-size:1.5rem;font-weight:700;font-variant-numeric:tabular-nums;overflow-wrap:anywhere}
.address code{direction:ltr;unicode-bidi:isolate}
.address{margin:0;font:600 1rem/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere;word-break:break-all}
.row{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}
button{min-height:44px;padding:.5rem .9rem;border:0;border-radius:8px;background:var(--accent);color:var(--accent-fg);font:inherit;font-weight:600;cursor:pointer}
.qr{display:block;width:min(100%,240px);height:auto;margin:.75rem auto;padding:8px;background:#fff;border-radius:8px}
.wallet{display:block;text-align:center;margin:.25rem 0 0}
.hint{color:var(--muted);font-size:.875rem;margin:.5rem 0 0}
.payments ul{margin:.25rem 0 0;padding:0;list-style:none}
.payments li{margin:.25rem 0;overflow-wrap:anywhere}
.tx{direction:ltr;unicode-bidi:isolate;font:.875rem/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;word-break:break-all}
@media (min-width:48rem){main,footer{max-width:46rem}.option{display:grid;grid-template-columns:1fr auto;column-gap:1.5rem;align-items:start}.option .hint{grid-column:1/-1}.option .qr{margin:0 auto .5rem}}
footer{max-width:30rem;margin:0 auto;padding:0 1rem 2rem;color:var(--muted);font-size:.8125rem;overflow-wrap:anywhere}
.refund label{display:block;font-weight:600}
.refund input{display:block;width:100%;min-height:44px;margin:.5rem 0 .75rem;padding:.5rem .75rem;border:1px solid var(--muted);border-radius:8px;background:var(--card);color:var(--fg);font:1rem/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.refund input:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.refund input[aria-invalid=true]{border:2px solid var(--bad)}
.field-error{margin:.5rem 0 0;color:var(--bad);font-weight:600;overflow-wrap:anywhere}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
[hidden]{display:none!important}
.inv table{width:100%;border-collapse:collapse;font-size:.9375rem}
.inv th,.inv td{padding:.375rem .25rem;border-bottom:1px solid var(--line);text-align:start;vertical-align:top;overflow-wrap:anywhere}
.inv .n{text-align:end;font-variant-numeric:tabular-nums;overflow-wrap:normal}
.inv .unit{display:block;color:var(--muted);font-size:.875rem;overflow-wrap:normal}
.inv tfoot th{font-weight:600}
.inv dl{margin:.25rem 0;display:grid;grid-template-columns:auto 1fr;column-gap:1rem}
.inv dt{color:var(--muted)}
.inv dd{margin:0;overflow-wrap:anywhere}
.inv form{margin:.75rem 0 0}
.receipt .merchant{font-weight:700;font-size:1.125rem;margin:.25rem 0}
.receipt .seller{margin:0;color:var(--muted);font-size:.875rem}
.receipt h1{margin:0 0 .5rem}
.facts{display:grid;grid-template-columns:auto 1fr;gap:.125rem .75rem;margin:0 0 .75rem}
.facts dt{color:var(--muted)}
.facts dd{margin:0;font-weight:600}
.receipt table{width:100%;border-collapse:collapse;font-size:.9375rem}
.receipt th,.receipt td{text-align:start;padding:.375rem .25rem;border-bottom:1px solid var(--line);vertical-align:top;overflow-wrap:anywhere}
.receipt .n{text-align:end;overflow-wrap:normal}
.receipt .unit{display:block;color:var(--muted);font-size:.875rem;overflow-wrap:normal}
.receipt tfoot th{text-align:end}
.receipt .payments{padding-inline-start:1.125rem}
`.trim();
