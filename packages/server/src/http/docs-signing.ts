import { PATHS } from '@hostpay/protocol';

/**
 * "Try it out" on /docs for the signed endpoints. A script served as a file (the page's CSP
 * allows scripts from 'self' only, no inline code) adds a small form above Swagger UI for an
 * API key id and secret, and Swagger UI's requestInterceptor hands every request to it. For the
 * token and merchant endpoints it sets `api-key`, `timestamp` (server clock, from
 * /api/v1/time), `signature-version: 2` and `signature` (HMAC-SHA256 of
 * `<timestamp>.<METHOD>.<canonical path?query>.<compact body>`, WebCrypto): version 2, which every
 * endpoint accepts and all but three require. For the merchant endpoints it fetches a bearer
 * token when the request has none.
 *
 * The secret lives only in this page's memory: in the input and a closure, never in
 * localStorage, sessionStorage, cookies or the URL, and it is never sent (only signatures are).
 * Reloading the page forgets it. WebCrypto needs a secure context (HTTPS or localhost); elsewhere
 * the form says so and points to `hostpay curl`.
 */
export const DOCS_SIGNING_FILE = 'hostpay-signing.js';

/** Swagger UI's requestInterceptor; serialised into swagger-initializer.js as source text. */
export const requestInterceptor = <R>(request: R): R | Promise<R> => {
  const signing = (globalThis as { hostpaySigning?: { sign<T>(r: T): Promise<T> } }).hostpaySigning;
  return signing === undefined ? request : signing.sign(request);
};

// Plain browser JavaScript (ES2020), kept free of anything a bundler would rewrite.
export const DOCS_SIGNING_SCRIPT = String.raw`'use strict';
(function () {
  var TOKEN_PATH = ${JSON.stringify(PATHS.token)};
  var TIME_PATH = ${JSON.stringify(PATHS.time)};
  var MERCHANT_PREFIX = '/api/v1/cp/';
  var creds = { keyId: '', secret: '' };
  var token = null; // { value, keyId, secret, expiresAtMs }
  var clockOffsetMs = null;
  var statusLine = null;

  function say(text) {
    if (statusLine !== null) statusLine.textContent = text;
  }

  // Same as the protocol's compactJson: whitespace outside strings removed, nothing else changed.
  function compactJson(raw) {
    var first = raw.trimStart()[0];
    if (first !== '{' && first !== '[') return raw;
    var out = '', inString = false, runStart = 0;
    for (var i = 0; i < raw.length; i++) {
      var c = raw.charCodeAt(i);
      if (inString) {
        if (c === 92) i++;
        else if (c === 34) inString = false;
      } else if (c === 34) inString = true;
      else if (c === 32 || c === 9 || c === 10 || c === 13) {
        out += raw.slice(runStart, i);
        runStart = i + 1;
      }
    }
    return out + raw.slice(runStart);
  }

  async function hmacHex(secret, text) {
    var enc = new TextEncoder();
    var key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    var mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(text)));
    return Array.from(mac, function (b) { return b.toString(16).padStart(2, '0'); }).join('');
  }

  // The server's clock decides whether a timestamp is fresh: ask it once.
  async function timestamp() {
    if (clockOffsetMs === null) {
      var res = await fetch(new URL(TIME_PATH, location.href).href);
      var time = await res.json();
      clockOffsetMs = time.result.unixTime * 1000 - Date.now();
    }
    return String(Math.floor((Date.now() + clockOffsetMs) / 1000));
  }

  // Same as the protocol's canonicalTarget (signature version 2): each part percent-decoded once
  // and re-encoded, query pairs sorted.
  function recode(part) {
    var decoded;
    try {
      decoded = decodeURIComponent(part);
    } catch (e) {
      return part;
    }
    return encodeURIComponent(decoded).replace(/[!'()*]/g, function (c) { return '%' + c.charCodeAt(0).toString(16).toUpperCase(); });
  }

  function canonicalTarget(target) {
    var q = target.indexOf('?');
    var path = q === -1 ? target : target.slice(0, q);
    var query = q === -1 ? '' : target.slice(q + 1);
    var canonicalPath = path.split('/').map(recode).join('/');
    var pairs = query.split('&').filter(function (p) { return p !== ''; }).map(function (part) {
      var eq = part.indexOf('=');
      var name = eq === -1 ? part : part.slice(0, eq);
      var value = eq === -1 ? '' : part.slice(eq + 1);
      return [recode(name.replace(/\+/g, ' ')), recode(value.replace(/\+/g, ' '))];
    }).sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0; });
    return pairs.length === 0 ? canonicalPath : canonicalPath + '?' + pairs.map(function (p) { return p[0] + '=' + p[1]; }).join('&');
  }

  // Version 2: the method and target are signed too, so the signature is good for this request only.
  async function keyHeaders(method, target, body) {
    var ts = await timestamp();
    var text = ts + '.' + method.toUpperCase() + '.' + canonicalTarget(target) + '.' + (body === '' ? '' : compactJson(body));
    return { 'api-key': creds.keyId, timestamp: ts, 'signature-version': '2', signature: await hmacHex(creds.secret, text) };
  }

  async function bearer() {
    var now = Date.now();
    if (token !== null && token.keyId === creds.keyId && token.secret === creds.secret && token.expiresAtMs - 30000 > now) return token.value;
    var res = await fetch(new URL(TOKEN_PATH, location.href).href, { method: 'POST', headers: await keyHeaders('POST', TOKEN_PATH, '') });
    var body = await res.json();
    if (!res.ok) throw new Error('token request failed: ' + (body.error ? body.error.code + ': ' : '') + body.message);
    token = { value: body.result.accessToken, keyId: creds.keyId, secret: creds.secret, expiresAtMs: Date.parse(body.result.expiresAt) };
    return token.value;
  }

  function setHeader(headers, name, value) {
    for (var existing of Object.keys(headers)) if (existing.toLowerCase() === name) delete headers[existing];
    headers[name] = value;
  }

  async function sign(request) {
    var url = new URL(request.url, location.href);
    var isToken = url.pathname === TOKEN_PATH;
    var isMerchant = url.pathname.startsWith(MERCHANT_PREFIX);
    if (url.origin !== location.origin || (!isToken && !isMerchant)) return request;
    if (creds.keyId === '' || creds.secret === '') {
      say('Not signed: type an API key id and secret above.');
      return request;
    }
    if (typeof crypto === 'undefined' || crypto.subtle === undefined) {
      say('Not signed: this browser allows WebCrypto only over HTTPS or on localhost. Use hostpay curl instead.');
      return request;
    }
    request.headers = request.headers || {};
    var body = request.body === undefined || request.body === null ? '' : typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    if (body !== '') request.body = body;
    var signed = await keyHeaders(request.method || 'GET', url.pathname + url.search, body);
    for (var name of Object.keys(signed)) setHeader(request.headers, name, signed[name]);
    var hasBearer = Object.keys(request.headers).some(function (h) { return h.toLowerCase() === 'authorization' && /^Bearer \S/.test(request.headers[h]); });
    if (isMerchant && !hasBearer) setHeader(request.headers, 'authorization', 'Bearer ' + (await bearer()));
    say('Signed ' + request.method + ' ' + url.pathname + ' with ' + creds.keyId + ' at ' + signed.timestamp + '.');
    return request;
  }

  function useCredentials(keyId, secret) {
    creds = { keyId: String(keyId).trim(), secret: String(secret) };
  }

  // The form: built with DOM calls (no HTML strings, no inline styles or handlers, per the CSP).
  function field(labelText, type, onInput) {
    var label = document.createElement('label');
    label.textContent = labelText + ' ';
    var input = document.createElement('input');
    input.type = type;
    input.autocomplete = 'off';
    input.spellcheck = false;
    input.addEventListener('input', onInput);
    label.appendChild(input);
    label.style.marginRight = '1em';
    return { label: label, input: input };
  }

  function buildForm() {
    var ui = document.getElementById('swagger-ui');
    if (ui === null) return;
    // A form so password managers and Enter behave; it is never submitted anywhere.
    var box = document.createElement('form');
    box.id = 'hostpay-signing';
    box.addEventListener('submit', function (event) { event.preventDefault(); });
    box.style.cssText = 'font-family: sans-serif; max-width: 1460px; margin: 1em auto; padding: 0 20px;';
    var title = document.createElement('h3');
    title.textContent = 'Signed requests for "Try it out"';
    var help = document.createElement('p');
    help.textContent = 'The merchant and token endpoints need api-key, timestamp and signature headers (and a bearer token). ' +
      'Type an API key id and secret here and every "Try it out" request to them is signed in this page, with a token fetched for you. ' +
      'The secret stays in this page\'s memory only: it is never stored or sent, and a reload forgets it. ' +
      'From a terminal instead: npx hostpay token, then npx hostpay curl /api/v1/cp/wallets | sh';
    var keyId = field('API key id', 'text', function () { useCredentials(keyId.input.value, secret.input.value); });
    var secret = field('API secret', 'password', function () { useCredentials(keyId.input.value, secret.input.value); });
    statusLine = document.createElement('p');
    statusLine.setAttribute('role', 'status');
    statusLine.textContent = 'Not signing yet.';
    for (var el of [title, help, keyId.label, secret.label, statusLine]) box.appendChild(el);
    ui.parentNode.insertBefore(box, ui);
  }

  globalThis.hostpaySigning = { sign: sign, useCredentials: useCredentials, canonicalTarget: canonicalTarget };
  if (typeof document !== 'undefined') buildForm();
})();
`;
