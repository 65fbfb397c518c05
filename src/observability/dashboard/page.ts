// The dashboard's static shell and style: no data in them, so they are served without a token
// (a browser cannot put one on a page load); the data comes from dashboard.json, which needs the
// operator token. The CSP allows only our own script and style: nothing injected could run.

export const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Switchboard</title>
<link rel="stylesheet" href="dashboard.css">
<link rel="icon" href="favicon.ico" type="image/svg+xml">
<script src="dashboard.js" defer></script>
</head>
<body>
<header>
  <h1>Switchboard</h1>
  <span id="version"></span>
  <span>up <b id="uptime">—</b></span>
  <span title="Live: a request in flight or an open GET stream. Idle: neither (a client may have left without ending its session; it is closed after limits.sessionIdleTimeout, or streamlessSessionIdleTimeout if it never opened a GET stream)."><b id="sessions-live">—</b> live · <b id="sessions-idle">—</b> idle sessions</span>
  <span title="Where sessions and resumable streams are kept: memory (this process) or redis (shared by replicas)">store <b id="store">—</b></span>
  <span id="offline" class="warn" hidden>gateway not answering</span>
  <button id="logout" type="button">Forget token</button>
</header>
<section id="login" hidden>
  <h2>Operator token</h2>
  <p id="login-message"></p>
  <form id="login-form" autocomplete="off">
    <input id="token" type="password" placeholder="Bearer token of a profile with operator: true" aria-label="Operator token">
    <button type="submit">Open</button>
  </form>
  <p class="hint">Kept in this tab only (sessionStorage) and sent as an Authorization header.</p>
</section>
<main id="app" hidden>
  <section>
    <h2>Servers</h2>
    <table id="servers">
      <thead><tr><th>Server</th><th>State</th><th>Transport</th><th>Protocol</th><th>Tools</th><th>Prompts</th><th>Resources</th><th>Templates</th><th>Calls/s</th><th>p50</th><th>p99</th><th>In flight</th><th>Last error</th></tr></thead>
      <tbody id="servers-body"></tbody>
    </table>
  </section>
  <section class="charts">
    <h2>Traffic <small id="metrics-off" class="warn" hidden>metrics are off (SWITCHBOARD_METRICS=off)</small></h2>
    <div id="legend"></div>
    <figure><figcaption>Calls per second</figcaption><svg id="chart-rate" viewBox="0 0 600 180" role="img" aria-label="Calls per second per server"></svg></figure>
    <figure><figcaption>Latency: p50 (solid), p99 (dashed)</figcaption><svg id="chart-latency" viewBox="0 0 600 180" role="img" aria-label="Latency per server"></svg></figure>
  </section>
  <section>
    <h2>Recent audit and sanitizer findings</h2>
    <table><thead><tr><th>Time</th><th>Server</th><th>Kind</th><th>Item</th><th>Change</th><th>Why</th></tr></thead><tbody id="audit-body"></tbody></table>
  </section>
  <section>
    <h2>Catalog</h2>
    <div class="controls">
      <select id="view" aria-label="Client profile"></select>
      <select id="kind" aria-label="Kind"><option value="tools">tools</option><option value="prompts">prompts</option><option value="resources">resources</option><option value="resourceTemplates">resource templates</option></select>
      <input id="search" type="search" placeholder="Search names and descriptions" aria-label="Search the catalog">
      <span id="catalog-count"></span> <span id="view-info" class="hint"></span>
    </div>
    <table id="catalog"><thead><tr><th>Name</th><th>Server</th><th>Description</th></tr></thead><tbody id="catalog-body"></tbody></table>
  </section>
</main>
</body>
</html>
`;

/** The tab's icon, at /favicon.ico (browsers ask there whatever the page says): a patch panel. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#111827"/><g fill="#f9fafb"><circle cx="9" cy="9" r="3"/><circle cx="9" cy="23" r="3"/><circle cx="23" cy="16" r="3"/></g><path d="M9 9 23 16 9 23" fill="none" stroke="#60a5fa" stroke-width="2"/></svg>
`;

export const DASHBOARD_CSS = `
:root { font: 14px/1.4 system-ui, sans-serif; color: #111827; background: #f9fafb; }
body { margin: 0; }
header { display: flex; gap: 1.2em; align-items: baseline; padding: .6em 1.2em; background: #111827; color: #f9fafb; }
header h1 { font-size: 1.2em; margin: 0; }
header button { margin-left: auto; }
section { margin: 1em 1.2em; }
h2 { font-size: 1.05em; margin: .2em 0 .5em; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: .3em .5em; border-bottom: 1px solid #e5e7eb; vertical-align: top; }
th { background: #f3f4f6; font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.name { font-family: ui-monospace, monospace; white-space: nowrap; }
td.description { max-width: 60em; overflow-wrap: anywhere; }
td.problem { color: #991b1b; max-width: 30em; overflow-wrap: anywhere; }
.detail { color: #6b7280; font-size: .9em; }
.countdown { color: #92400e; }
.state { padding: .05em .5em; border-radius: 1em; background: #e5e7eb; }
.state-ready { background: #dcfce7; color: #166534; }
.state-connecting { background: #e0f2fe; color: #075985; }
.state-backing-off { background: #fef3c7; color: #92400e; }
.state-failed { background: #fee2e2; color: #991b1b; }
.state-disabled, .state-closed { background: #f3f4f6; color: #6b7280; }
.charts figure { display: inline-block; margin: 0 1em 0 0; background: #fff; border: 1px solid #e5e7eb; padding: .4em; }
.charts svg { width: 600px; height: 180px; display: block; }
figcaption { font-size: .9em; color: #4b5563; }
.grid { stroke: #e5e7eb; }
.tick { font-size: 10px; fill: #6b7280; }
#legend { margin-bottom: .4em; }
.legend-item { border-left: 1em solid; padding-left: .4em; margin-right: 1em; }
.controls { display: flex; gap: .6em; align-items: center; margin-bottom: .5em; }
.controls input { flex: 1; max-width: 30em; padding: .3em; }
.warn { color: #b45309; }
.hint { color: #6b7280; font-size: .9em; }
.empty { color: #6b7280; }
#login { max-width: 36em; background: #fff; border: 1px solid #e5e7eb; padding: 1em; }
#login input { width: 24em; padding: .3em; }
`;
