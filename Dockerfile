# hotel-imager: the furni service and the avatar service from one image; the command picks which.
#
#   docker build -t hotel-imager .
#   docker run -p 8081:8081 -v /srv/hotel:/app/assets:ro hotel-imager serve avatar --assets /app/assets
#   docker run -p 8080:8080 -v /srv/corpus:/srv/corpus:ro hotel-imager serve furni --corpus /srv/corpus
#   docker run -p 8080:8080 -p 8081:8081 hotel-imager            # `start`: both, on the built-in sample kit
#
# NODE_IMAGE is the base of every stage. Where no image registry can be reached it names a locally made
# base instead (scripts/container-base.sh; docs/deployment.md, "Containers"); nothing else differs.
# With podman/buildah, build with `--format docker`: the OCI format has no HEALTHCHECK.
ARG NODE_IMAGE=node:24-bookworm-slim

# Production dependencies only, from the lock file.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# The TypeScript build (needs the dev dependencies).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build-info.mjs scripts/
COPY src src/
# No .git in the build context: /version reports the commit given here (docker build --build-arg GIT_COMMIT=$(git rev-parse HEAD)).
ARG GIT_COMMIT=unknown
RUN HOTEL_IMAGER_BUILD_COMMIT="$GIT_COMMIT" npm run build

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOTEL_IMAGER_CACHE=/var/cache/hotel-imager
WORKDIR /app
COPY --from=deps /app/node_modules node_modules/
COPY --from=build /app/dist dist/
COPY package.json ./
COPY player player/
COPY scripts/healthcheck.mjs scripts/
# The sample kit, its corpus and any --cache-dir go under HOTEL_IMAGER_CACHE; /srv/corpus is where
# compose.yaml keeps the built furni corpus (a named volume takes this owner). Both belong to the service user.
RUN ln -s /app/dist/cli/main.js /usr/local/bin/hotel-imager \
    && chmod 0755 /app/dist/cli/main.js \
    && mkdir -p /var/cache/hotel-imager /srv/corpus \
    && chown node:node /var/cache/hotel-imager /srv/corpus
USER node
EXPOSE 8080 8081
# Probes /healthz on the service ports (HOTEL_IMAGER_FURNI_PORT / HOTEL_IMAGER_AVATAR_PORT, defaults
# 8080 / 8081): set the port by those variables rather than --port so the probe finds it.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "/app/scripts/healthcheck.mjs"]
ENTRYPOINT ["node", "/app/dist/cli/main.js"]
CMD ["start"]
