import { describe, expect, it } from 'vitest';
import { cycles, folderImports } from './import-graph.js';

describe('the server is folders that import one way', () => {
  const graph = folderImports();

  it('no folder imports a folder that imports it back, directly or around a loop', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('the kernel imports no feature', () => {
    const offenders = [...graph]
      .filter(([from]) => !from.startsWith('features/') && from !== 'demo')
      .flatMap(([from, to]) => [...to].filter((t) => t.startsWith('features/')).map((t) => `${from} -> ${t}`));
    expect(offenders).toEqual([]);
  });

  it('events and webhooks: webhooks depends on events, never the other way', () => {
    expect(graph.get('features/events')?.has('features/webhooks')).toBe(false);
    expect(graph.get('features/webhooks')?.has('features/events')).toBe(true);
  });

  it('the check sees a loop when there is one', () => {
    const looped = new Map([
      ['features/a', new Set(['features/b'])],
      ['features/b', new Set(['features/c'])],
      ['features/c', new Set(['features/a', 'http'])],
      ['http', new Set<string>()],
    ]);
    expect(cycles(looped)).toEqual([['features/a', 'features/b', 'features/c']]);
  });
});
