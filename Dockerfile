# syntax=docker/dockerfile:1
# The service's image: built from the repository in one stage, run from the runtime bundle (tools/bundle.mjs) in a
# small second one, as an unprivileged user. See the README's "Deploying" section.

FROM node:24-bookworm-slim AS build
WORKDIR /src
ENV NX_NO_CLOUD=true NX_DAEMON=false CHECKPOINT_DISABLE=1
COPY package.json package-lock.json ./
# Install scripts are skipped here and the Prisma client is generated once the sources (the schema) are in.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npx prisma generate && node tools/bundle.mjs dist/runtime

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    METRICS_HOST=0.0.0.0 \
    METRICS_PORT=9464 \
    APP_ROOT=/app
WORKDIR /app
COPY --from=build --chown=root:root /src/dist/runtime ./
# The service writes nothing to its own folder (its data lives in PostgreSQL): the files stay root-owned, read-only
# to the user it runs as.
USER node
EXPOSE 3000 9464
# Liveness only (the process answers); orchestrators should route on GET /health/ready.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node runs as PID 1 and handles SIGTERM itself: SIGTERM reaches the service, which drains (SHUTDOWN_DELAY_MS) and exits.
# The V8 flags are the service's memory policy (apps/api/node-flags.json; deployment.spec checks they match).
CMD ["node", "--max-semi-space-size=16", "--heap-growing-percent=50", "main.js"]
