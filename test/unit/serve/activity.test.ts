import { describe, expect, it } from 'vitest';
import { Activity, tracked } from '../../../src/serve/activity.js';

describe('Activity (how long serve has been idle)', () => {
  it('is never idle while a request runs, and counts from the end of the last one', async () => {
    let now = 1_000;
    const activity = new Activity(() => now);
    now = 5_000;
    expect(activity.idleMs()).toBe(4_000);
    const endA = activity.begin();
    const endB = activity.begin();
    now = 60_000;
    expect(activity.idleMs()).toBe(0);
    endA();
    endA(); // ending twice counts once
    expect(activity.idleMs()).toBe(0);
    endB();
    now = 61_000;
    expect(activity.idleMs()).toBe(1_000);
    await expect(tracked(activity, async () => { now = 70_000; throw new Error('boom'); })).rejects.toThrow('boom');
    now = 70_500;
    expect(activity.idleMs()).toBe(500);
  });
});
