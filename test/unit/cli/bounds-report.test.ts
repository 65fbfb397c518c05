import { describe, expect, it } from 'vitest';
import { boundsReport, renderBounds } from '../../../src/cli/bounds-report.js';
import { parse } from '../config/helpers.js';

describe('boundsReport', () => {
  it('shows the list and subscription bounds in force, and a server that has its own list bounds', () => {
    const config = parse(
      'limits:\n  maxListItems: 500\n  maxSubscriptionsPerSession: 7\nservers:\n  - name: big\n    command: x\n    listLimits: { maxItems: 50000, fetchTimeout: 2m }\n  - name: small\n    command: y\n',
    );
    const text = renderBounds(boundsReport(config));
    expect(text).toContain("each server's lists: 500 items, 32 MiB, 60s per fetch");
    expect(text).toContain("big's lists: 50000 items, 120s per fetch (listLimits)");
    expect(text).not.toContain("small's lists");
    expect(text).toContain('resource subscriptions: 7 per session, 10000 in all');
  });
});
