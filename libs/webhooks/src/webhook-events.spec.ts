import { matchesAny, readEventPatterns } from './webhook-events';

describe('webhook event patterns', () => {
  it.each([
    [['asset.created'], 'asset.created', true],
    [['asset.created'], 'asset.updated', false],
    [['asset.*'], 'asset.content-replaced', true],
    [['asset.*'], 'assets.created', false],
    [['asset.*'], 'lightbox.created', false],
    [['*'], 'user.deleted', true],
    [['category.deleted', 'user.*'], 'user.created', true],
    [[], 'asset.created', false],
  ])('%j wants %s: %s', (patterns, type, wanted) => {
    expect(matchesAny(patterns, type)).toBe(wanted);
  });

  it('reads names, areas and *; refuses anything else', () => {
    expect(readEventPatterns(['asset.created', 'asset.*', '*', 'asset.created'])).toEqual([
      'asset.created',
      'asset.*',
      '*',
    ]);
    for (const bad of [
      [],
      'asset.created',
      [''],
      ['asset'],
      ['Asset.Created'],
      [1],
      ['a.b.c'],
      ['*.created'],
    ])
      expect(() => readEventPatterns(bad)).toThrow('event');
  });
});
