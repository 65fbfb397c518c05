// How tools/list shows tools, from the config in force: the exposure settings of each profile (a
// profile's catalog section over the global one), code mode's declarer once loaded, and whether
// some view is near one of its token budgets (where only the exact o200k count may decide).

import type { Catalog, CatalogExposure } from '../catalog/build.js';
import type { CodeDeclarer } from '../catalog/code-tool.js';
import type { TokenCounter } from '../search/tokens.js';
import { viewFor } from '../catalog/view.js';
import type { GatewayConfig } from '../config/types.js';

export function exposureOf(config: GatewayConfig, counter: TokenCounter | undefined, declare: CodeDeclarer | undefined): CatalogExposure {
  const c = config.catalog;
  return {
    settingsFor: (profile) => ({
      mode: profile?.catalog?.mode ?? c.mode,
      tokenBudget: profile?.catalog?.tokenBudget ?? c.tokenBudget,
      alwaysVisible: profile?.catalog?.alwaysVisible ?? c.alwaysVisible,
      searchTool: c.searchTool,
      callTool: c.callTool,
      listServersTool: c.listServersTool,
      runCodeTool: c.runCodeTool,
      directoryBudget: profile?.catalog?.directoryBudget ?? c.directoryBudget,
      codeBudget: profile?.catalog?.codeBudget ?? c.codeBudget,
    }),
    counter,
    code: declare && { declare, limits: config.codeMode },
  };
}

/** Whether some view is in code mode (then run_code's declarations are worth loading). */
export function usesCodeMode(config: GatewayConfig): boolean {
  return config.catalog.mode === 'code' || config.clients.some((p) => p.catalog?.mode === 'code');
}

/**
 * Whether some view is near a budget (within 25%): an auto view's full list near its
 * tokenBudget, a search or code view's server directory near its directoryBudget, a code view's
 * declarations near its codeBudget. There the estimate could decide wrongly; elsewhere it never would.
 */
export function nearABudget(catalog: Catalog, config: GatewayConfig): boolean {
  const near = (tokens: number, budget: number) => tokens > budget * 0.75 && tokens < budget * 1.25;
  return [undefined, ...config.clients].some((profile) => {
    const s = catalog.exposure.settingsFor(profile);
    if (s.mode === 'full') return false;
    const exposure = viewFor(catalog, profile).exposure();
    if (s.mode === 'auto' && near(exposure.tokens().full, s.tokenBudget)) return true;
    if (exposure.mode === 'code' && near(exposure.tokens().declarations, s.codeBudget)) return true;
    return exposure.mode !== 'full' && near(exposure.directory().directory, s.directoryBudget);
  });
}
