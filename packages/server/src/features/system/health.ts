import type { Metric } from 'prom-client';

/** One watched chain as /readyz reports it. */
export interface ChainStatus {
  chain: string;
  state: 'watching' | 'standby' | 'error' | 'failing' | 'stopped';
  leader: boolean;
  lastError: string | null;
  failedRounds: number;
}

/** What another feature's background work adds to /readyz and /metrics (the chain watcher's). */
export interface HealthReport {
  /** Its chains, listed under `chains` in /readyz. */
  chains?(): ChainStatus[];
  /** Its metrics, served with the app's on /metrics. */
  collectors?(): Metric[];
}

declare module '../../feature-kit/contributions.js' {
  interface ContributionPoints {
    /** What /readyz and /metrics report of another feature's work (system/health.ts). */
    health: HealthReport;
  }
}

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    /** Every feature's health reports (the `health` contributions), for the system routes. */
    healthReports: () => readonly HealthReport[];
  }
}
