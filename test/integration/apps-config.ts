// The servers of the MCP Apps tests: two example apps from npm and a fixture whose tool names and
// UI URI clash with theirs (last in config order, so nothing about it depends on being first).

import path from 'node:path';
import { fixture, nodeBin, repoRoot, yamlServers } from '../helpers/index.js';

export const APP_MIME = 'text/html;profile=mcp-app';
/** Client capabilities of a host that renders MCP Apps. */
export const APP_HOST_CAPABILITIES = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [APP_MIME] } } } as any;
export const appPackage = (name: string) => path.join(repoRoot, 'node_modules', '@modelcontextprotocol', name, 'dist');

/** basic (server-basic-vanillajs), monitor (server-system-monitor), clash (test/fixtures/servers/app-clash.mjs). */
export function appServersYaml(extra: Record<string, unknown> = {}): string {
  return yamlServers(
    [
      { name: 'basic', command: nodeBin, args: [path.join(appPackage('server-basic-vanillajs'), 'index.js'), '--stdio'] },
      { name: 'monitor', command: nodeBin, args: [path.join(appPackage('server-system-monitor'), 'index.js'), '--stdio'] },
      { name: 'clash', command: nodeBin, args: [fixture('app-clash.mjs')] },
    ],
    { limits: { startupWait: '30s' }, ...extra },
  );
}
