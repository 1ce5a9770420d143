// The one shape of /healthz for every service (avatar, furni, and any later one), so a probe, a load
// balancer or an operator reads them alike (docs/operations.md, "/healthz"):
//   { status: "ok" | "fail", service, version, commit, builtAt, uptimeSeconds,
//     checks: { <name>: { ok, error?, …details } }, …the service's own sections }
// `status` is "fail", and the answer 503, exactly when a check is not ok; a check that fails says why in
// `error`. What does not decide health (caches, counters, Redis, badges) sits beside `checks`.
import { type BuildInfo } from './build-info.js';

export interface HealthCheck {
  ok: boolean;
  /** Why the check fails, in words. */
  error?: string;
  [detail: string]: unknown;
}

export interface HealthIdentity {
  /** `hotel-imager-<service>`. */
  service: string;
  version: string;
  build: BuildInfo;
  startedAtMs: number;
}

export type HealthBody = {
  status: 'ok' | 'fail';
  service: string;
  version: string;
  commit: string;
  builtAt: string;
  uptimeSeconds: number;
  checks: Record<string, HealthCheck>;
} & Record<string, unknown>;

export function healthBody(
  id: HealthIdentity,
  checks: Record<string, HealthCheck>,
  sections: Record<string, unknown> = {},
): HealthBody {
  return {
    status: Object.values(checks).every((c) => c.ok) ? 'ok' : 'fail',
    service: id.service,
    version: id.version,
    commit: id.build.commit,
    builtAt: id.build.builtAt,
    uptimeSeconds: Math.round((Date.now() - id.startedAtMs) / 1000),
    checks,
    ...sections,
  };
}

/** 200 when every check passes, else 503. */
export function healthStatus(body: HealthBody): 200 | 503 {
  return body.status === 'ok' ? 200 : 503;
}
