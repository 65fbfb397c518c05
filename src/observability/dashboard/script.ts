// The dashboard's browser script, served as /dashboard.js (the page's CSP allows no inline
// script). Every value from the gateway reaches the page through textContent or an attribute set
// by setAttribute: never as markup. The operator token lives in sessionStorage (this tab only)
// and goes out as `Authorization: Bearer`, never in a URL.

export const DASHBOARD_SCRIPT = String.raw`'use strict';
(function () {
  var KEY = 'switchboard.operatorToken';
  var COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777'];
  var SVG = 'http://www.w3.org/2000/svg';
  var state = null, fetchedAt = 0, catalog = null, catalogVersion = null, timer = null;

  function $(id) { return document.getElementById(id); }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function token() { try { return sessionStorage.getItem(KEY); } catch (e) { return null; } }
  function headers() { var t = token(); return t ? { Authorization: 'Bearer ' + t } : {}; }
  function fmt(n, digits) { return n === null || n === undefined ? '—' : Number(n).toFixed(digits); }
  function ms(n) { return n === null || n === undefined ? '—' : (n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : n.toFixed(0)) + ' ms'; }

  function showLogin(message) {
    $('login').hidden = false;
    $('login-message').textContent = message;
    $('app').hidden = true;
    if (timer) { clearTimeout(timer); timer = null; }
  }

  function get(path) {
    return fetch(path, { headers: headers(), cache: 'no-store', credentials: 'omit' }).then(function (res) {
      if (res.status === 401) { showLogin(token() ? 'That token was not accepted.' : 'This gateway needs an operator token.'); throw new Error('401'); }
      if (res.status === 403) { showLogin('That token belongs to a client profile without operator: true.'); throw new Error('403'); }
      if (!res.ok) throw new Error('HTTP ' + res.status);
      return res.json();
    });
  }

  function poll() {
    get('dashboard.json').then(function (s) {
      state = s; fetchedAt = Date.now();
      $('login').hidden = true; $('app').hidden = false; $('offline').hidden = true;
      render();
      if (s.catalogVersion !== catalogVersion) {
        return get('dashboard/catalog.json').then(function (c) { catalog = c; catalogVersion = c.version; renderViews(); renderCatalog(); });
      }
    }).catch(function (err) {
      if (err && (err.message === '401' || err.message === '403')) return;
      $('offline').hidden = false;
    }).then(function () {
      if ($('login').hidden) timer = setTimeout(poll, 2000);
    });
  }

  function countdown(s) {
    if (s.retryInMs === null) return '';
    var left = Math.max(0, Math.ceil((s.retryInMs - (Date.now() - fetchedAt)) / 1000));
    return 'retry in ' + left + ' s';
  }

  function last(series) { return series.length ? series[series.length - 1] : null; }

  function renderServers() {
    var body = $('servers-body');
    clear(body);
    state.servers.forEach(function (s) {
      var tr = el('tr'); tr.setAttribute('data-server', s.name);
      tr.appendChild(el('td', s.name, 'name'));
      var st = el('td'); st.appendChild(el('span', s.state, 'state state-' + s.state)); tr.appendChild(st);
      tr.appendChild(el('td', s.transport));
      tr.appendChild(el('td', s.protocolVersion || '—'));
      tr.appendChild(el('td', s.tools, 'num tools'));
      tr.appendChild(el('td', s.prompts, 'num'));
      tr.appendChild(el('td', s.resources, 'num resources'));
      tr.appendChild(el('td', s.resourceTemplates, 'num templates'));
      var p = last(s.series);
      tr.appendChild(el('td', p ? fmt(p.rate, 1) : '—', 'num rate'));
      tr.appendChild(el('td', p ? ms(p.p50) : '—', 'num'));
      tr.appendChild(el('td', p ? ms(p.p99) : '—', 'num'));
      tr.appendChild(el('td', s.inFlight === null ? '—' : s.inFlight, 'num'));
      var problem = el('td', '', 'problem');
      if (s.problem) problem.appendChild(el('div', s.problem));
      if (s.detail) problem.appendChild(el('div', s.detail, 'detail'));
      var cd = countdown(s);
      if (cd) problem.appendChild(el('div', cd, 'countdown'));
      tr.appendChild(problem);
      body.appendChild(tr);
    });
  }

  function line(svg, points, color, dashed) {
    if (points.length === 0) return;
    if (!dashed) points.forEach(function (p) {
      var c = document.createElementNS(SVG, 'circle');
      c.setAttribute('cx', p[0].toFixed(1)); c.setAttribute('cy', p[1].toFixed(1)); c.setAttribute('r', '2.5'); c.setAttribute('fill', color);
      svg.appendChild(c);
    });
    var pl = document.createElementNS(SVG, 'polyline');
    pl.setAttribute('points', points.map(function (p) { return p[0].toFixed(1) + ',' + p[1].toFixed(1); }).join(' '));
    pl.setAttribute('fill', 'none');
    pl.setAttribute('stroke', color);
    pl.setAttribute('stroke-width', '2');
    if (dashed) pl.setAttribute('stroke-dasharray', '4 3');
    svg.appendChild(pl);
  }

  function axis(svg, w, h, max, unit) {
    [0, 0.5, 1].forEach(function (f) {
      var y = h - 20 - f * (h - 30);
      var g = document.createElementNS(SVG, 'line');
      g.setAttribute('x1', '40'); g.setAttribute('x2', String(w)); g.setAttribute('y1', String(y)); g.setAttribute('y2', String(y));
      g.setAttribute('class', 'grid');
      svg.appendChild(g);
      var t = document.createElementNS(SVG, 'text');
      t.setAttribute('x', '2'); t.setAttribute('y', String(y + 4)); t.setAttribute('class', 'tick');
      t.textContent = fmt(max * f, max * f < 10 ? 1 : 0) + unit;
      svg.appendChild(t);
    });
  }

  function chart(svgId, pick, unit, dashedPick) {
    var svg = $(svgId);
    clear(svg);
    var w = 600, h = 180;
    // The window grows with the history there is: 20 s at first, up to the whole ring (5 min).
    var now = state.now, oldest = now, max = 0;
    state.servers.forEach(function (s) {
      s.series.forEach(function (p) {
        if (p.t < oldest) oldest = p.t;
        var v = pick(p); if (v !== null && v > max) max = v;
        if (dashedPick) { var d = dashedPick(p); if (d !== null && d > max) max = d; }
      });
    });
    max = max > 0 ? max * 1.1 : 1;
    var span = Math.min((state.intervalMs || 2000) * 150, Math.max(20000, now - oldest));
    axis(svg, w, h, max, unit);
    var drawn = 0, lines = 0;
    var gap = (state.intervalMs || 2000) * 1.5;
    state.servers.forEach(function (s, i) {
      var color = COLORS[i % COLORS.length];
      // One line per run of samples: an interval without a value (no call ended in it) or a
      // missing sample breaks it, so no line is drawn across idle time.
      function runs(f) {
        var out = [], run = [], prev = null;
        s.series.forEach(function (p) {
          var v = f(p);
          if (v === null || (prev !== null && p.t - prev > gap)) { if (run.length) out.push(run); run = []; }
          if (v !== null) run.push([40 + (w - 40) * (1 - Math.min(1, (now - p.t) / span)), h - 20 - (v / max) * (h - 30)]);
          prev = p.t;
        });
        if (run.length) out.push(run);
        return out;
      }
      runs(pick).forEach(function (r) { line(svg, r, color, false); drawn += r.length; lines++; });
      if (dashedPick) runs(dashedPick).forEach(function (r) { line(svg, r, color, true); });
    });
    svg.setAttribute('data-points', String(drawn));
    svg.setAttribute('data-lines', String(lines));
  }

  function renderLegend() {
    var legend = $('legend');
    clear(legend);
    state.servers.forEach(function (s, i) {
      var item = el('span', s.name, 'legend-item');
      item.style.borderColor = COLORS[i % COLORS.length];
      legend.appendChild(item);
    });
  }

  function renderAudit() {
    var body = $('audit-body');
    clear(body);
    if (state.audit.length === 0) { var tr = el('tr'); var td = el('td', 'Nothing changed or held back so far.', 'empty'); td.colSpan = 6; tr.appendChild(td); body.appendChild(tr); return; }
    state.audit.forEach(function (a) {
      var tr = el('tr');
      tr.appendChild(el('td', new Date(a.time).toLocaleTimeString()));
      tr.appendChild(el('td', a.server));
      tr.appendChild(el('td', a.kind));
      tr.appendChild(el('td', a.item + (a.field ? ' · ' + a.field : '')));
      tr.appendChild(el('td', a.change));
      tr.appendChild(el('td', a.why));
      body.appendChild(tr);
    });
  }

  function render() {
    $('version').textContent = 'v' + state.version;
    $('uptime').textContent = Math.floor(state.uptimeS / 60) + ' min ' + (state.uptimeS % 60) + ' s';
    $('sessions-live').textContent = String(state.sessions.live);
    $('sessions-idle').textContent = String(state.sessions.idle);
    $('store').textContent = state.store ? state.store.kind + (state.store.health === 'up' ? '' : ' (unreachable)') : '—';
    $('store').className = state.store && state.store.health !== 'up' ? 'warn' : '';
    $('metrics-off').hidden = state.metrics;
    renderServers();
    renderLegend();
    chart('chart-rate', function (p) { return p.rate; }, '/s');
    chart('chart-latency', function (p) { return p.p50; }, ' ms', function (p) { return p.p99; });
    renderAudit();
  }

  function renderViews() {
    var select = $('view');
    var chosen = select.value;
    clear(select);
    catalog.views.forEach(function (v, i) {
      var o = el('option', v.profile === null ? 'no profile (everything)' : 'profile ' + v.profile);
      o.value = String(i);
      select.appendChild(o);
    });
    if (chosen && Number(chosen) < catalog.views.length) select.value = chosen;
  }

  function renderCatalog() {
    if (!catalog) return;
    var view = catalog.views[Number($('view').value) || 0];
    var kind = $('kind').value;
    var q = $('search').value.trim().toLowerCase();
    var items = view[kind] || [];
    var shown = items.filter(function (it) {
      if (!q) return true;
      return [it.name, it.server, it.original, it.title || '', it.description || ''].join('\n').toLowerCase().indexOf(q) !== -1;
    });
    $('view-info').textContent = view.mode + ' mode · tools/list ' + (view.mode === 'full' ? view.tokens.full : view.mode === 'code' ? view.tokens.code : view.tokens.search) + (view.tokens.exact ? ' tokens (o200k)' : ' tokens (estimate)');
    $('catalog-count').textContent = shown.length + ' of ' + items.length;
    var body = $('catalog-body');
    clear(body);
    shown.slice(0, 500).forEach(function (it) {
      var tr = el('tr');
      tr.appendChild(el('td', it.name, 'name'));
      tr.appendChild(el('td', it.server));
      var d = el('td', it.description || '', 'description');
      if (it.title) d.insertBefore(el('strong', it.title + ' '), d.firstChild);
      tr.appendChild(d);
      body.appendChild(tr);
    });
  }

  $('login-form').addEventListener('submit', function (e) {
    e.preventDefault();
    try { sessionStorage.setItem(KEY, $('token').value.trim()); } catch (err) { /* storage off: nothing to keep */ }
    $('token').value = '';
    poll();
  });
  $('logout').addEventListener('click', function () {
    try { sessionStorage.removeItem(KEY); } catch (err) { /* nothing kept */ }
    showLogin('Signed out of this tab.');
  });
  $('search').addEventListener('input', renderCatalog);
  $('view').addEventListener('change', renderCatalog);
  $('kind').addEventListener('change', renderCatalog);
  setInterval(function () { if (state && $('login').hidden) renderServers(); }, 1000);
  poll();
})();
`;
