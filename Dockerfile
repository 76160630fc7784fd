# hostpay server image. Build: docker build -t hostpay .
# Two stages: the first has the toolchain better-sqlite3 may need to compile; the second only
# Node and the installed tree.
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/protocol/package.json packages/protocol/
COPY packages/server/package.json packages/server/
COPY packages/client/package.json packages/client/
COPY packages/cli/package.json packages/cli/
RUN npm ci --omit=dev --no-audit --no-fund
COPY packages packages

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOSTPAY_HOST=0.0.0.0 \
    HOSTPAY_PORT=8080 \
    HOSTPAY_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:8080/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM drains in-flight requests, then exits.
STOPSIGNAL SIGTERM
CMD ["node", "packages/cli/bin/hostpay.js", "serve"]
