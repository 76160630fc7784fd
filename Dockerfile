# hostpay server image. Build: docker build -t hostpay .
# Two stages: the first has the toolchain (better-sqlite3 may compile; tsc builds dist/); the
# second holds Node, the production dependencies and the compiled JavaScript only.
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
# `npm ci` runs the `prepare` script, which compiles every package to dist/.
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf packages/*/src packages/*/test packages/*/dist/.tsbuildinfo packages/server/console bench

FROM node:20-bookworm-slim
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
