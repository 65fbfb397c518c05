// The tasks over server-memory and server-everything (same shape as tasks-fs.mjs). The data the
// model is given in the prompt (facts, packages) is in the script and in the plain calls alike.

import { QUOTA_ENV } from './tasks-fixture.mjs';

const SERVICES = [
  ['billing-api', 'payments', 'Go', 8081],
  ['ledger', 'payments', 'Rust', 8082],
  ['invoice-worker', 'payments', 'Python', 9100],
  ['search-api', 'discovery', 'Rust', 8443],
  ['indexer', 'discovery', 'Java', 9200],
  ['profile-api', 'identity', 'Go', 8090],
  ['token-service', 'identity', 'Rust', 8091],
  ['notifier', 'growth', 'TypeScript', 7000],
  ['experiments', 'growth', 'Python', 7001],
  ['edge-proxy', 'platform', 'C++', 443],
];
const FACTS = SERVICES.map(([name, team, lang, port]) => ({ name, entityType: 'service', observations: [`team: ${team}`, `language: ${lang}`, `port: ${port}`] }));

// package -> what it depends on
const PACKAGES = {
  'web-app': ['ui-kit', 'api-client', 'feature-flags'],
  'admin-app': ['ui-kit', 'api-client', 'audit-log'],
  'ui-kit': ['design-tokens', 'date-utils'],
  'api-client': ['http-core', 'auth-sdk'],
  'auth-sdk': ['http-core', 'crypto-utils'],
  'feature-flags': ['http-core', 'hashing'],
  'audit-log': ['crypto-utils', 'date-utils'],
  'http-core': ['retry-policy'],
  hashing: ['crypto-utils'],
  'crypto-utils': ['bigint-math'],
  'retry-policy': [],
  'design-tokens': [],
  'date-utils': [],
  'bigint-math': [],
};
const ENTITIES = Object.keys(PACKAGES).map((name) => ({ name, entityType: 'package', observations: [`npm package @acme/${name}`] }));
const EDGES = Object.entries(PACKAGES).flatMap(([from, deps]) => deps.map((to) => ({ from, to, relationType: 'depends_on' })));

function closure(start, next) {
  const seen = new Set();
  const todo = [start];
  while (todo.length) for (const n of next(todo.shift())) if (!seen.has(n)) seen.add(n), todo.push(n);
  return [...seen].sort();
}

const quotas = () =>
  Object.entries(QUOTA_ENV)
    .filter(([k]) => k.startsWith('BENCH_QUOTA_'))
    .sort(([a], [b]) => (a < b ? -1 : 1));

export const KG_TASKS = [
  {
    name: 'memory-facts',
    goal: 'Remember ten facts about our services; then: what does team payments own, what is written in Rust, which port is search-api on?',
    find: [
      ['memory', 'create entities', 'create_entities'],
      ['memory', 'search nodes', 'search_nodes'],
      ['memory', 'open nodes by name', 'open_nodes'],
    ],
    async plain(turn) {
      await turn([['memory__create_entities', { entities: FACTS }]]);
      const [payments, rust, search] = (
        await turn([
          ['memory__search_nodes', { query: 'team: payments' }],
          ['memory__search_nodes', { query: 'language: Rust' }],
          ['memory__open_nodes', { names: ['search-api'] }],
        ])
      ).map((t) => JSON.parse(t));
      const port = search.entities[0].observations.find((o) => o.startsWith('port: ')).slice(6);
      return { payments: payments.entities.map((e) => e.name).sort(), rust: rust.entities.map((e) => e.name).sort(), searchApiPort: port };
    },
    script: async (tools) => {
      const services = [
        ['billing-api', 'payments', 'Go', 8081],
        ['ledger', 'payments', 'Rust', 8082],
        ['invoice-worker', 'payments', 'Python', 9100],
        ['search-api', 'discovery', 'Rust', 8443],
        ['indexer', 'discovery', 'Java', 9200],
        ['profile-api', 'identity', 'Go', 8090],
        ['token-service', 'identity', 'Rust', 8091],
        ['notifier', 'growth', 'TypeScript', 7000],
        ['experiments', 'growth', 'Python', 7001],
        ['edge-proxy', 'platform', 'C++', 443],
      ];
      await tools.memory.create_entities({
        entities: services.map(([name, team, lang, port]) => ({ name, entityType: 'service', observations: [`team: ${team}`, `language: ${lang}`, `port: ${port}`] })),
      });
      const [payments, rust, search] = await Promise.all([
        tools.memory.search_nodes({ query: 'team: payments' }),
        tools.memory.search_nodes({ query: 'language: Rust' }),
        tools.memory.open_nodes({ names: ['search-api'] }),
      ]);
      const names = (g) => g.entities.map((e) => e.name).sort();
      return { payments: names(payments), rust: names(rust), searchApiPort: search.entities[0].observations.find((o) => o.startsWith('port: ')).slice(6) };
    },
    expected: () => ({
      payments: SERVICES.filter((s) => s[1] === 'payments')
        .map((s) => s[0])
        .sort(),
      rust: SERVICES.filter((s) => s[2] === 'Rust')
        .map((s) => s[0])
        .sort(),
      searchApiPort: '8443',
    }),
  },
  {
    name: 'dep-graph',
    goal: 'Record our package graph in memory; then: everything web-app depends on, and everything that breaks if crypto-utils changes.',
    find: [
      ['memory', 'create entities', 'create_entities'],
      ['memory', 'create relations', 'create_relations'],
      ['memory', 'open nodes by name', 'open_nodes'],
    ],
    async plain(turn) {
      await turn([['memory__create_entities', { entities: ENTITIES }]]);
      await turn([['memory__create_relations', { relations: EDGES }]]);
      // Breadth first, one level per turn, both questions in the same turns.
      const seen = { down: new Set(), up: new Set() };
      let frontier = { down: ['web-app'], up: ['crypto-utils'] };
      while (frontier.down.length || frontier.up.length) {
        const dirs = ['down', 'up'].filter((d) => frontier[d].length);
        const graphs = (await turn(dirs.map((d) => ['memory__open_nodes', { names: frontier[d] }]))).map((t) => JSON.parse(t));
        const next = { down: [], up: [] };
        dirs.forEach((d, i) => {
          for (const r of graphs[i].relations) {
            const [from, to] = d === 'down' ? [r.from, r.to] : [r.to, r.from];
            if (r.relationType === 'depends_on' && frontier[d].includes(from) && !seen[d].has(to)) seen[d].add(to), next[d].push(to);
          }
        });
        frontier = next;
      }
      return { dependsOn: [...seen.down].sort(), breaksIfChanged: [...seen.up].sort() };
    },
    script: async (tools) => {
      const deps = {
        'web-app': ['ui-kit', 'api-client', 'feature-flags'],
        'admin-app': ['ui-kit', 'api-client', 'audit-log'],
        'ui-kit': ['design-tokens', 'date-utils'],
        'api-client': ['http-core', 'auth-sdk'],
        'auth-sdk': ['http-core', 'crypto-utils'],
        'feature-flags': ['http-core', 'hashing'],
        'audit-log': ['crypto-utils', 'date-utils'],
        'http-core': ['retry-policy'],
        hashing: ['crypto-utils'],
        'crypto-utils': ['bigint-math'],
        'retry-policy': [],
        'design-tokens': [],
        'date-utils': [],
        'bigint-math': [],
      };
      await tools.memory.create_entities({ entities: Object.keys(deps).map((name) => ({ name, entityType: 'package', observations: [`npm package @acme/${name}`] })) });
      await tools.memory.create_relations({ relations: Object.entries(deps).flatMap(([from, tos]) => tos.map((to) => ({ from, to, relationType: 'depends_on' }))) });
      async function reach(start, down) {
        const seen = new Set();
        let frontier = [start];
        while (frontier.length) {
          const { relations } = await tools.memory.open_nodes({ names: frontier });
          const next = [];
          for (const r of relations) {
            const [from, to] = down ? [r.from, r.to] : [r.to, r.from];
            if (r.relationType === 'depends_on' && frontier.includes(from) && !seen.has(to)) seen.add(to), next.push(to);
          }
          frontier = next;
        }
        return [...seen].sort();
      }
      const [dependsOn, breaksIfChanged] = await Promise.all([reach('web-app', true), reach('crypto-utils', false)]);
      return { dependsOn, breaksIfChanged };
    },
    expected: () => ({
      dependsOn: closure('web-app', (n) => PACKAGES[n]),
      breaksIfChanged: closure('crypto-utils', (n) => Object.keys(PACKAGES).filter((p) => PACKAGES[p].includes(n))),
    }),
  },
  {
    name: 'env-pipeline',
    goal: "Take the BENCH_QUOTA_* variables of the everything server's environment, echo one line per region, and total them with get-sum.",
    find: [
      ['everything', 'environment variables', 'get-env'],
      ['everything', 'echo message', 'echo'],
      ['everything', 'sum two numbers', 'get-sum'],
    ],
    async plain(turn) {
      const [envText] = await turn([['everything__get-env', {}]]);
      const list = Object.entries(JSON.parse(envText))
        .filter(([k]) => k.startsWith('BENCH_QUOTA_'))
        .sort(([a], [b]) => (a < b ? -1 : 1));
      // get-sum adds two numbers: a tree of sums, each level one turn, the echoes in the first.
      let values = list.map(([, v]) => Number(v));
      let lines;
      let first = true;
      while (values.length > 1) {
        const pairs = [];
        for (let i = 0; i + 1 < values.length; i += 2) pairs.push(['everything__get-sum', { a: values[i], b: values[i + 1] }]);
        const echoes = first ? list.map(([k, v]) => ['everything__echo', { message: `${k.slice(12).toLowerCase()}: ${v}` }]) : [];
        const texts = await turn([...echoes, ...pairs]);
        if (first) lines = texts.slice(0, echoes.length);
        const sums = texts.slice(echoes.length).map((t) => Number(/ is (-?[\d.]+)\.?$/.exec(t)[1]));
        values = values.length % 2 ? [...sums, values.at(-1)] : sums;
        first = false;
      }
      return { lines, total: values[0] };
    },
    probe: async (tools) => {
      const env = await tools.everything.get_env();
      return { type: typeof env, keys: Object.keys(env).slice(0, 3), sum: await tools.everything.get_sum({ a: 1, b: 2 }) };
    },
    script: async (tools) => {
      const env = await tools.everything.get_env();
      const quotas = Object.keys(env)
        .filter((k) => k.startsWith('BENCH_QUOTA_'))
        .sort();
      const lines = [];
      let total = 0;
      for (const key of quotas) {
        lines.push(await tools.everything.echo({ message: `${key.slice(12).toLowerCase()}: ${env[key]}` }));
        const sum = await tools.everything['get-sum']({ a: total, b: Number(env[key]) });
        total = Number(sum.match(/ is (-?[\d.]+)\.?$/)[1]);
      }
      return { lines, total };
    },
    expected: () => ({
      lines: quotas().map(([k, v]) => `Echo: ${k.slice(12).toLowerCase()}: ${v}`),
      total: quotas().reduce((a, [, v]) => a + Number(v), 0),
    }),
  },
  {
    name: 'weather',
    goal: 'Which of New York, Chicago and Los Angeles is warmest now, and at what temperatures?',
    find: [['everything', 'weather structured content', 'get-structured-content']],
    async plain(turn) {
      const cities = ['New York', 'Chicago', 'Los Angeles'];
      const texts = await turn(cities.map((location) => ['everything__get-structured-content', { location }]));
      const temps = Object.fromEntries(cities.map((c, i) => [c, JSON.parse(texts[i]).temperature]));
      return { warmest: cities.reduce((a, b) => (temps[b] > temps[a] ? b : a)), temperatures: temps };
    },
    script: async (tools) => {
      const cities = ['New York', 'Chicago', 'Los Angeles'];
      const weather = await Promise.all(cities.map((location) => tools.everything.get_structured_content({ location })));
      const temperatures = Object.fromEntries(cities.map((c, i) => [c, weather[i].temperature]));
      return { warmest: cities.reduce((a, b) => (temperatures[b] > temperatures[a] ? b : a)), temperatures };
    },
    expected: () => ({ warmest: 'Los Angeles', temperatures: { 'New York': 33, Chicago: 36, 'Los Angeles': 73 } }),
  },
];
