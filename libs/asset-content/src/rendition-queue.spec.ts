import { RenditionQueue } from './rendition-queue';
import { fitInside } from './renditions.service';

describe('RenditionQueue', () => {
  it('runs tasks one at a time by default, in order, after the turn that queued them', async () => {
    const queue = new RenditionQueue();
    const events: string[] = [];
    let running = 0;
    let most = 0;
    for (const name of ['a', 'b', 'c']) {
      queue.add(name, async () => {
        running += 1;
        most = Math.max(most, running);
        events.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        events.push(`end ${name}`);
        running -= 1;
      });
    }
    events.push('queued');
    await queue.idle();
    expect(events).toEqual(['queued', 'start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(most).toBe(1);
    expect(queue.size).toBe(0);
  });

  it('runs up to its concurrency at once, and a failed task does not stop the others', async () => {
    const queue = new RenditionQueue(2);
    let running = 0;
    let most = 0;
    let done = 0;
    for (let index = 0; index < 5; index += 1) {
      queue.add(`task ${index}`, async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        if (index === 1) throw new Error('broken image');
        done += 1;
      });
    }
    await queue.idle();
    expect([most, done]).toEqual([2, 4]);
  });

  it('is idle at once when nothing is queued', async () => {
    await expect(new RenditionQueue().idle()).resolves.toBeUndefined();
  });
});

describe('fitInside', () => {
  it.each([
    [{ width: 1600, height: 1200 }, 150, { width: 150, height: 113 }],
    [{ width: 1200, height: 1600 }, 400, { width: 300, height: 400 }],
    [{ width: 100, height: 50 }, 1024, { width: 100, height: 50 }],
    [{ width: 20000, height: 1 }, 150, { width: 150, height: 1 }],
  ])('fits %j inside %d as %j', (source, size, expected) => {
    expect(fitInside(source, size)).toEqual(expected);
  });
});
