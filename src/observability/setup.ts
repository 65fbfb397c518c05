// Switches observability on for a serving gateway: counters when the HTTP face is open (the only
// place they can be read) unless SWITCHBOARD_METRICS=off, traces when the OTEL_* variables ask for
// them, and the pages that show both: /metrics (prom-client, loaded on the first scrape) and the
// dashboard. Returns the pages for the HTTP face and what to stop at shutdown.

import type { Logger } from '../log.js';
import { dashboardPages, reply, type ObservedPage } from './dashboard/pages.js';
import { Series } from './dashboard/series.js';
import type { GatewayFacts } from './facts.js';
import type { Observer } from './observer.js';
import { ObservedStats } from './stats.js';
import { startTracing } from './tracing.js';

export interface ObservabilityOptions {
  /** The HTTP face will listen: metrics and the dashboard have somewhere to be read. */
  http: boolean;
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  /** Methods the gateway serves: client requests are counted under these names, others as 'other'. */
  knownMethods: ReadonlySet<string>;
}

export interface Observability {
  /** Pages for the HTTP face, by path. */
  readonly pages: ReadonlyMap<string, ObservedPage>;
  /** Stops sampling and exports the spans still buffered. */
  close(): Promise<void>;
}

export const METRICS_PATH = '/metrics';

/** SWITCHBOARD_METRICS=off (or 0, false, no) turns counting off: for A/B benchmarks, or by choice. */
export function metricsWanted(env: Readonly<Record<string, string | undefined>>): boolean {
  return !['off', '0', 'false', 'no'].includes((env.SWITCHBOARD_METRICS ?? '').trim().toLowerCase());
}

export async function startObservability(observer: Observer, facts: GatewayFacts, options: ObservabilityOptions): Promise<Observability> {
  const startedAt = Date.now();
  observer.tracing = await startTracing(options.env, options.logger);
  const pages = new Map<string, ObservedPage>();
  let series: Series | undefined;
  if (options.http) {
    const stats = metricsWanted(options.env) ? (observer.stats = new ObservedStats(options.knownMethods)) : undefined;
    if (stats) {
      series = new Series(stats, () => facts.servers().map((s) => s.name)).start();
      pages.set(METRICS_PATH, metricsPage(stats, facts, options.logger));
    }
    for (const [path, page] of dashboardPages({ facts, recent: observer.recent, stats, series, startedAt })) pages.set(path, page);
  }
  return {
    pages,
    async close() {
      series?.stop();
      const tracing = observer.tracing;
      observer.tracing = undefined;
      await tracing?.shutdown();
    },
  };
}

/** /metrics: prom-client and its process metrics load on the first scrape, not at start-up. */
function metricsPage(stats: ObservedStats, facts: GatewayFacts, logger: Logger): ObservedPage {
  let exposition: Promise<import('./metrics.js').MetricsExposition> | undefined;
  return {
    access: 'operator',
    serve(req, res) {
      exposition ??= import('./metrics.js').then((m) => m.createMetrics(stats, facts));
      exposition
        // Token figures exact, as check and the dashboard show them.
        .then((e) =>
          facts
            .exactTokens()
            .catch(() => undefined)
            .then(() => e),
        )
        .then((e) => e.render().then((body) => reply(req, res, e.contentType, body, 'no-store')))
        .catch((err: unknown) => {
          logger.error({ err: String(err) }, 'metrics not rendered');
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
          res.end('metrics not rendered; see the gateway log\n');
        });
    },
  };
}
