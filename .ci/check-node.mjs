// `npm test` on a Node older than hostpay supports would crash in better-sqlite3 13 (a Node-API 10
// addon) with no explanation: stop first and say what to run.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 14)) {
  console.error(
    `hostpay needs Node.js 22.14 or newer (CI tests 24 LTS); this is ${process.version}. ` +
      'Run `source .ci/use-node.sh` first: it puts the pinned Node 24 on PATH for this shell.',
  );
  process.exit(2);
}
