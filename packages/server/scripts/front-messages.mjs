// The fronts' catalogues at build time. Every `t('key')` in console/, dashboard/ and ui-kit/ whose
// message has no placeholder is written as its text, so the bundle carries the words once, as it
// did before they moved to the catalogue; a `t('key', values)` keeps its call with a short key, and
// each front's messages module receives only those messages. A key missing from its catalogue, or a
// `t(` whose key is not a literal, fails the build. A language to come is a build of its own.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';

const SCOPES = ['console', 'dashboard', 'ui-kit'];

async function loadCatalogues(root) {
  const entry = `
    export { default as console } from './src/i18n/fronts/en/console/index.ts';
    export { default as dashboard } from './src/i18n/fronts/en/dashboard/index.ts';
    export { default as kit } from './src/i18n/fronts/en/kit.ts';
    export { formatMessage } from './ui-kit/messages.ts';
  `;
  const out = await build({
    stdin: { contents: entry, resolveDir: root, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
  });
  const code = out.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

/** Short keys for the messages that keep a call: the catalogue's order, in base 36. */
function shortKeys(messages) {
  const short = new Map();
  for (const [key, text] of Object.entries(messages)) if (text.includes('{')) short.set(key, short.size.toString(36));
  return short;
}

export function frontMessages(root) {
  let loaded;
  return {
    name: 'front-messages',
    setup(b) {
      // Once per build script, not per front: both fronts' builds share this plugin.
      b.onStart(async () => {
        if (loaded !== undefined) return;
        const c = await loadCatalogues(root);
        const scopes = { console: c.console, dashboard: c.dashboard, 'ui-kit': c.kit };
        loaded = { format: c.formatMessage, scopes, short: {} };
        for (const [scope, messages] of Object.entries(scopes)) loaded.short[scope] = shortKeys(messages);
      });
      const filter = new RegExp(`/packages/server/(${SCOPES.join('|')})/.*\\.tsx?$`);
      b.onLoad({ filter }, async (args) => {
        const scope = SCOPES.find((s) => args.path.includes(`/packages/server/${s}/`));
        const messages = loaded.scopes[scope];
        const short = loaded.short[scope];
        const source = await readFile(args.path, 'utf8');
        const loader = args.path.endsWith('x') ? 'tsx' : 'ts';
        if (/\/(console|dashboard)\/messages\.ts$|\/ui-kit\/kit-messages\.ts$/.test(args.path)) {
          const kept = Object.fromEntries([...short].map(([key, id]) => [id, messages[key]]));
          const contents = `import { translator } from ${JSON.stringify(`${root}ui-kit/messages.ts`)};
export const t = translator(${JSON.stringify(kept)});`;
          return { contents, loader: 'ts' };
        }
        // The formatter itself names `t('key')` in its documentation, not as a call.
        if (args.path.endsWith('/ui-kit/messages.ts') || !/\bt\(/.test(source)) return undefined;
        const errors = [];
        const contents = source.replace(/\bt\((\s*)(?:(['"])([^'"\n]+)\2\s*(\)|,))?/g, (call, _s, _q, key, end) => {
          if (key === undefined) {
            errors.push({ text: 't( needs a literal key, so the build can find its message' });
            return call;
          }
          if (!(key in messages)) {
            errors.push({ text: `no message ${key} in the ${scope} catalogue` });
            return call;
          }
          const id = short.get(key);
          if (id === undefined) {
            if (end === ')') return JSON.stringify(loaded.format(messages[key]));
            errors.push({ text: `${key} has no placeholder: call t('${key}') without values` });
            return call;
          }
          return `t(${JSON.stringify(id)}${end}`;
        });
        if (errors.length > 0) return { errors };
        return { contents, loader };
      });
    },
  };
}
