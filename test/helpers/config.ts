// Building gateway config YAML from plain objects.
import { stringify } from 'yaml';
import { fixture, nodeBin, type FixtureName } from './paths.js';

export interface StdioServerEntry {
  name: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
  [key: string]: unknown;
}
export interface HttpServerEntry {
  name: string;
  url: string;
  [key: string]: unknown;
}
export type ServerEntry = StdioServerEntry | HttpServerEntry;

export interface GatewayConfig {
  servers: ServerEntry[];
  [key: string]: unknown;
}

/** Serialises a config object to YAML: configYaml({ servers: [fixtureServer('echo', 'echo')] }). */
export function configYaml(config: GatewayConfig): string {
  return stringify(config);
}

/** Shorthand: configYaml({ servers }) with any extra top-level keys. */
export function yamlServers(servers: ServerEntry[], extra: Record<string, unknown> = {}): string {
  return configYaml({ ...extra, servers });
}

/**
 * A stdio server entry that runs a fixture with this Node binary:
 * fixtureServer('echo', 'echo', ['--tools', '3'], { some: 'extra key' }).
 */
export function fixtureServer(name: string, fixtureName: FixtureName, args: string[] = [], extra: Record<string, unknown> = {}): StdioServerEntry {
  return { name, command: nodeBin, args: [fixture(fixtureName), ...args], ...extra };
}

/** An HTTP server entry. */
export function httpServer(name: string, url: string, extra: Record<string, unknown> = {}): HttpServerEntry {
  return { name, url, ...extra };
}
