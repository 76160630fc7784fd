/**
 * The payment page's script, served as /pay/assets/pay-<hash>.js (assets.ts). Progressive: the
 * page is complete without it (reload shows the state); with it, the page polls
 * /pay/{id}/status (every second while visible, every 5 s in a background tab, backing off on
 * errors and obeying Retry-After; stopping once settled or invalid), updates amounts, QR code and
 * state in place, counts down to expiresAt on the server's clock, switches networks without a
 * reload and copies to the clipboard. It writes text only (textContent, attributes): never markup.
 * Its words come from data-t-* attributes of #pay, written by the server in the page's language
 * (`%name%` where a value goes); its status polls carry the page's `?lang=`.
 * Plain ES2017 in a string: no build step, nothing to find on disk at run time.
 */
export const PAGE_JS = `
(function () {
  'use strict';
  var root = document.getElementById('pay');
  if (!root) return;
  var PAYABLE = { open: 1, underpaid: 1 };
  var FINAL = { settled: 1, invalid: 1 };
  // Amounts are exact decimal literals: read them as text, never through floating point.
  var AMOUNTS = /"(amount|amountDue|received|remaining)":(-?[0-9][0-9.eE+-]*)/g;
  var SCHEMES = /^(bitcoin|ethereum):/;
  var EXPLORER = /^https:\\/\\//;
  var statusUrl = root.getAttribute('data-status-url');
  var status = document.body.getAttribute('data-status');
  var skew = Date.parse(root.getAttribute('data-now')) - Date.now();
  var failures = 0;
  var pending = 0;
  var poked = false;
  var rtl = document.documentElement.dir === 'rtl';

  // A value inside a right-to-left sentence keeps reading left to right (LRI … PDI), as on the server.
  function exact(v) { return rtl ? '\\u2066' + v + '\\u2069' : String(v); }
  function words(name) { return root.getAttribute('data-t-' + name) || ''; }
  // The message \`name\` with its %placeholders% filled: text, or nodes where a value is an element.
  function fill(name, values) {
    var out = document.createDocumentFragment();
    words(name).split(/%(\\w+)%/).forEach(function (part, i) {
      if (i % 2 === 0) { if (part) out.appendChild(document.createTextNode(part)); return; }
      var v = values[part];
      out.appendChild(v && v.nodeType ? v : document.createTextNode(exact(v == null ? '' : v)));
    });
    return out;
  }
  function fillText(name, values) { return fill(name, values).textContent; }

  function one(sel, el) { return (el || root).querySelector(sel); }
  function all(sel, el) { return Array.prototype.slice.call((el || root).querySelectorAll(sel)); }
  function text(el, value) { if (el && el.textContent !== value) el.textContent = value; }
  function say(message) {
    var live = one('[data-announce]');
    if (!live) return;
    live.textContent = '';
    setTimeout(function () { live.textContent = message; }, 50);
  }

  function copy(button) {
    var value = button.getAttribute('data-copy');
    // The visible word is the first text node ("Copy"); what follows names it for screen readers.
    var word = button.firstChild;
    var label = button.getAttribute('data-label') || word.nodeValue;
    button.setAttribute('data-label', label);
    function done() {
      word.nodeValue = words('copied');
      say(fillText('copied-say', { value: value }));
      setTimeout(function () { word.nodeValue = label; }, 1500);
    }
    function fallback() {
      var area = document.createElement('textarea');
      area.value = value;
      area.setAttribute('readonly', '');
      area.className = 'vh';
      document.body.appendChild(area);
      area.select();
      try { document.execCommand('copy'); } catch (e) { /* the value stays selectable on the page */ }
      document.body.removeChild(area);
      done();
    }
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(value).then(done, fallback);
    else fallback();
  }

  function choose(key) {
    all('[data-option]').forEach(function (panel) { panel.hidden = panel.getAttribute('data-option') !== key; });
    all('[data-option-link]').forEach(function (a) {
      if (a.getAttribute('data-option-link') === key) a.setAttribute('aria-current', 'true');
      else a.removeAttribute('aria-current');
    });
    try {
      // The other parameters (the page's ?lang=) stay: a reload shows the same page.
      var params = new URLSearchParams(location.search);
      params.set('option', key);
      history.replaceState(null, '', '?' + params.toString());
    } catch (e) { /* file: or sandboxed */ }
  }

  root.addEventListener('click', function (event) {
    var target = event.target;
    if (!target || !target.closest) return;
    var button = target.closest('[data-copy]');
    if (button) { copy(button); return; }
    var link = target.closest('[data-option-link]');
    if (link && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey) {
      event.preventDefault();
      choose(link.getAttribute('data-option-link'));
    }
  });

  function pad(n) { return n < 10 ? '0' + n : String(n); }
  function tick() {
    var clock = one('[data-expires]');
    if (!clock || !PAYABLE[status]) return;
    var left = Math.max(0, Date.parse(clock.getAttribute('data-expires')) - (Date.now() + skew));
    var s = Math.floor(left / 1000);
    var h = Math.floor(s / 3600);
    var m = Math.floor(s / 60) % 60;
    text(clock, (h > 0 ? h + ':' + pad(m) : String(m)) + ':' + pad(s % 60));
    if (left === 0 && !poked) { poked = true; schedule(0); }
  }

  function apply(r) {
    skew = Date.parse(r.now) - Date.now();
    var payable = !!PAYABLE[r.status];
    // Payment details the page was rendered without (it loaded in another state): load it again.
    if (payable && !one('[data-option]')) { location.reload(); return; }
    if (r.status !== status) {
      status = r.status;
      document.body.setAttribute('data-status', r.status);
    }
    text(one('[data-state-title]'), r.title);
    text(one('[data-state-message]'), r.message);
    text(document.querySelector('[data-footer]'), r.footer);
    payments(r.payments);
    var link = one('[data-state-link]');
    if (link) {
      link.parentNode.hidden = !r.link;
      if (r.link) { link.setAttribute('href', r.link.href); text(link, r.link.text); }
    }
    receipt(r);
    all('[data-payable]').forEach(function (el) { el.hidden = !payable; });
    r.options.forEach(function (o) {
      var panel = one('[data-option="' + o.key + '"]');
      if (!panel) return;
      text(one('[data-remaining]', panel), o.remaining);
      text(one('[data-received]', panel), o.received);
      var amount = one('[data-copy-amount]', panel);
      if (amount) amount.setAttribute('data-copy', o.remaining);
      var wallet = one('[data-uri]', panel);
      // Only a payment URI of a known scheme: never a bare address (it would be a relative link).
      if (wallet && o.walletUri && SCHEMES.test(o.walletUri)) wallet.setAttribute('href', o.walletUri);
      var img = one('img[data-qr]', panel);
      if (img && img.getAttribute('data-v') !== o.remaining) {
        img.setAttribute('data-v', o.remaining);
        img.setAttribute('src', img.getAttribute('data-qr') + '&v=' + encodeURIComponent(o.remaining));
        img.setAttribute('alt', fillText('qr', { amount: o.remaining, asset: o.asset, address: o.address }));
      }
    });
  }

  // The receipt exists from settlement on: its link, made from this page's own path (the status
  // only says that there is one and its number), so the script never follows a URL it was sent.
  function receipt(r) {
    var p = one('[data-receipt]');
    var a = one('[data-receipt-link]');
    if (!p || !a || !r.receiptUrl || !r.receiptNumber) return;
    a.setAttribute('href', statusUrl.replace(/\\/status(\\?.*)?$/, '/receipt'));
    text(a, fillText('receipt', { number: r.receiptNumber }));
    p.hidden = false;
  }

  // The payments received, rebuilt from the status with elements and text only (never markup).
  var shownPayments = '';
  function payments(list) {
    var section = one('[data-payments]');
    var ul = one('[data-payment-list]');
    if (!section || !ul || !list) return;
    var key = JSON.stringify(list);
    if (key === shownPayments) return;
    shownPayments = key;
    while (ul.firstChild) ul.removeChild(ul.firstChild);
    list.forEach(function (p) {
      var li = document.createElement('li');
      var amount = document.createElement('span');
      amount.className = 'num';
      amount.setAttribute('dir', 'ltr');
      amount.textContent = p.amount + ' ' + p.asset;
      var tx;
      var code = document.createElement('code');
      code.className = 'tx';
      code.textContent = p.txHash;
      if (p.explorerUrl && EXPLORER.test(p.explorerUrl)) {
        var a = document.createElement('a');
        a.setAttribute('href', p.explorerUrl);
        a.setAttribute('rel', 'noopener noreferrer');
        a.setAttribute('target', '_blank');
        a.appendChild(code);
        var note = document.createElement('span');
        note.className = 'vh';
        note.textContent = ' ' + words('explorer');
        a.appendChild(note);
        tx = a;
      } else tx = code;
      li.appendChild(fill('payment', { amount: amount, chain: p.chain, tx: tx }));
      ul.appendChild(li);
    });
    section.hidden = list.length === 0;
  }

  function schedule(ms) {
    clearTimeout(pending);
    if (ms >= 0) pending = setTimeout(poll, ms);
  }
  function poll() {
    fetch(statusUrl, { headers: { accept: 'application/json' }, cache: 'no-store', credentials: 'omit' })
      .then(function (res) {
        if (!res.ok) {
          var after = Number(res.headers.get('retry-after'));
          throw { wait: after > 0 ? after * 1000 : 0 };
        }
        return res.text();
      })
      .then(function (body) {
        failures = 0;
        var r = JSON.parse(body.replace(AMOUNTS, '"$1":"$2"')).result;
        apply(r);
        schedule(FINAL[r.status] ? -1 : document.hidden ? 5000 : 1000);
      })
      .catch(function (e) {
        failures++;
        schedule(Math.max((e && e.wait) || 0, Math.min(30000, 1000 * Math.pow(2, failures))));
      });
  }
  document.addEventListener('visibilitychange', function () { if (!document.hidden && !FINAL[status]) schedule(0); });

  setInterval(tick, 1000);
  tick();
  if (!FINAL[status]) schedule(1000);
})();
`.trim();
