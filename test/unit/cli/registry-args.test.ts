// The command line of `registry search` and `add`: what each takes, and the mistakes it names.

import { describe, expect, it } from 'vitest';
import { UsageError, parseCli } from '../../../src/cli/args.js';

describe('registry search and add on the command line', () => {
  it('parses registry search with its paging options', () => {
    expect(parseCli(['registry', 'search', 'weather', '--cursor', 'abc', '--registry', 'http://127.0.0.1:1'])).toMatchObject({
      command: 'registry-search',
      query: 'weather',
      cursor: 'abc',
      all: false,
      registry: 'http://127.0.0.1:1',
    });
    expect(parseCli(['registry', 'search', 'weather', '--all'])).toMatchObject({ command: 'registry-search', all: true });
  });

  it('parses add NAME@VERSION with --dry-run and --update', () => {
    expect(parseCli(['add', 'io.github.example/weather@1.0.0', '--dry-run', '-c', 'x.yaml'])).toMatchObject({
      command: 'add',
      spec: 'io.github.example/weather@1.0.0',
      dryRun: true,
      update: false,
      config: 'x.yaml',
    });
    expect(parseCli(['add', 'io.github.example/weather', '--update'])).toMatchObject({ command: 'add', update: true, dryRun: false });
    expect(parseCli(['add', 'io.github.example/weather'])).not.toHaveProperty('localName');
  });

  it('parses add --name LOCAL', () => {
    expect(parseCli(['add', 'io.github.example/weather', '--name', 'forecasts', '--update'])).toMatchObject({ command: 'add', localName: 'forecasts', update: true });
  });

  it.each([
    [['registry', 'find', 'x'], /unknown registry action "find"/],
    [['registry', 'search'], /registry search expects one TEXT/],
    [['registry', 'search', 'x', '--all', '--cursor', 'c'], /either --cursor or --all/],
    [['registry', 'search', 'x', '--update'], /only apply to add/],
    [['add', 'weather'], /add expects one registry server NAME\[@VERSION\]/],
    [['add', 'io.github.example/weather', '--all'], /only apply to registry search/],
    [['add', 'io.github.example/weather', '--registry', 'ftp://x'], /--registry expects an http/],
    [['check', '--dry-run'], /only apply to registry search and add/],
    [['check', '--name', 'x'], /only apply to registry search and add/],
    [['registry', 'search', 'x', '--name', 'y'], /--name, --dry-run and --update only apply to add/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseCli(argv)).toThrow(UsageError);
    expect(() => parseCli(argv)).toThrow(message);
  });
});
