# hostpay server image. Build: docker build -t hostpay .
# Two stages: the first installs and compiles (tsc builds dist/); the second holds Node, the
# production dependencies and the compiled JavaScript only. Node 24 LTS, the version CI tests
# (.ci/node/package-lock.json pins the same major).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY . .
# No dependency's install script runs (--ignore-scripts): the production tree needs none
# (better-sqlite3 13 ships prebuilt Node-API binaries and picks one at run time; so does secp256k1,
# whose script would only compile where none ships, and there hostpay uses libsecp256k1's WebAssembly
# build instead; a test checks that no other production package in package-lock.json has an
# install script), and the dev tools'
# ones (esbuild's binary check, and those package.json "allowScripts" refuses) are not needed to
# build. So no compiler toolchain either. `npm run build` is the `prepare` that --ignore-scripts
# skipped; then the SQLite driver must load in this Node, and
# only its binary for the image's platform is kept (the others are ~23 MB).
RUN npm ci --ignore-scripts --no-audit --no-fund && npm run build \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
 && rm -rf packages/*/src packages/*/test packages/*/dist/.tsbuildinfo packages/server/console packages/server/dashboard packages/server/ui-kit bench .ci \
 && node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()" \
 && find node_modules/better-sqlite3/prebuilds -name '*.node' ! -name "$(node -p 'process.platform+"-"+process.arch').node" -delete

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOSTPAY_HOST=0.0.0.0 \
    HOSTPAY_PORT=8080 \
    HOSTPAY_DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=root:root /app /app
RUN mkdir -p /data && chown node:node /data && chmod 0700 /data
# The embedded SQLite store and a generated master key live here; mount it to keep them.
VOLUME ["/data"]
USER node
EXPOSE 8080
# Shell form so the port is the one configured at run time (docker run -e HOSTPAY_PORT=…).
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.HOSTPAY_PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM drains in-flight requests, then exits.
STOPSIGNAL SIGTERM
CMD ["node", "packages/cli/bin/hostpay.js", "serve"]
