import { resultChanges } from './publishing-actions.repository';

describe('resultChanges', () => {
  it('lists what entered and what left, each in id order and once', () => {
    expect(resultChanges([12, 3, 7, 3], [7, 20, 1])).toEqual({ entered: [3, 12], left: [1, 20] });
  });

  it('is empty when nothing changed', () => {
    expect(resultChanges([2, 1], [1, 2])).toEqual({ entered: [], left: [] });
    expect(resultChanges([], [])).toEqual({ entered: [], left: [] });
  });
});
