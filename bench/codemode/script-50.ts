// A script as a model writes one in code mode: types, a helper, a few calls, a summary.
interface Issue {
  number: number;
  title: string;
  labels: { name: string }[];
  state: 'open' | 'closed';
  comments: number;
}

type Summary = { label: string; open: number; hot: Issue[] };

const LABELS: readonly string[] = ['bug', 'regression', 'security'];

function isHot(issue: Issue, threshold: number = 10): boolean {
  return issue.state === 'open' && issue.comments >= threshold;
}

async function fetchAll(label: string): Promise<Issue[]> {
  const all: Issue[] = [];
  for (let page = 1; page <= 3; page++) {
    const res = (await tools.github.search_issues({ q: `label:${label}`, per_page: 100, page })) as { items: Issue[] };
    all.push(...res.items);
    if (res.items.length < 100) break;
  }
  return all;
}

const summaries: Summary[] = [];
for (const label of LABELS) {
  const issues = await fetchAll(label);
  const open = issues.filter((i) => i.state === 'open');
  const hot = open.filter((i) => isHot(i)).sort((a, b) => b.comments - a.comments);
  summaries.push({ label, open: open.length, hot: hot.slice(0, 5) });
  console.log(`${label}: ${open.length} open, ${hot.length} hot`);
}

const worst = summaries.reduce<Summary | undefined>((a, b) => (a === undefined || b.open > a.open ? b : a), undefined);
if (worst !== undefined && worst.open > 50) {
  await tools.slack.post_message({
    channel: '#triage',
    text: `Most open: ${worst.label} (${worst.open}). Hottest: ${worst.hot.map((i) => `#${i.number}`).join(', ')}`,
  });
}

return {
  labels: summaries.map(({ label, open }) => ({ label, open })),
  hottest: summaries.flatMap((s) => s.hot).map((i): [number, string] => [i.number, i.title]),
  worst: worst?.label ?? null,
};
