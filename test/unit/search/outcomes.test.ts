// Outcomes whose construction says the operation (round 14): "make sure I don't forget X" asks for a
// reminder, "make sure the service has 6 copies running" for a scale.

import { describe, expect, it } from 'vitest';
import { outcomes } from '../../../src/search/outcomes.js';
import { ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
const index = new ToolSearchIndex();
for (const d of [
  tool('todo', 'create_tasks', 'Create new tasks, with a due date and a reminder.'),
  tool('todo', 'get_tasks', 'List tasks.'),
  tool('memory', 'delete_observations', 'Delete observations about entities from the knowledge graph.'),
  tool('memory', 'delete_entities', 'Delete entities from the knowledge graph, so the assistant forgets them.'),
  tool('cluster', 'resources_scale', 'Get or update the scale (replicas) of a Kubernetes resource.'),
  tool('cluster', 'pods_list', 'List the pods running in the cluster.'),
  tool('cluster', 'services_list', 'List the services of the cluster.'),
  tool('files', 'copy_file', 'Copy a file to a new location.'),
]) index.upsert(d);
const top = (q: string): string | undefined => index.search(q)[0]?.key;

describe('outcomes read by their construction', () => {
  it('reads not forgetting as a reminder', () => {
    expect(top("make sure I don't forget the dentist on tuesday")).toBe('todo__create_tasks');
    expect(top("don't let me forget to pay the rent")).toBe('todo__create_tasks');
  });

  it('leaves forgetting itself a deletion', () => {
    expect(outcomes('forget what I told you about my old job')).toBe('forget what I told you about my old job');
    expect(top('forget everything you know about my old job')).toMatch(/^memory__delete_/);
  });

  it('reads a wanted count of running copies as a scale', () => {
    expect(top('make sure the checkout service has 6 copies running')).toBe('cluster__resources_scale');
    expect(top('keep three api instances running')).toBe('cluster__resources_scale');
  });

  it('leaves a question about running copies alone', () => {
    expect(outcomes('are there 3 copies running?')).toBe('are there 3 copies running?');
  });
});
