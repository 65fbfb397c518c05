// Integration-test helpers. Typical use:
//
//   import { afterAll } from 'vitest';
//   import { cleanup, startGateway, connectHttpClient, yamlServers, fixtureServer } from '../helpers/index.js';
//   afterAll(cleanup);
//
//   const gw = await startGateway(yamlServers([fixtureServer('echo', 'echo')]));
//   const client = await connectHttpClient(gw.url);
export * from './paths.js';
export * from './config.js';
export * from './processes.js';
export * from './gateway.js';
export * from './clients.js';
export * from './fixtures.js';
