import { describe, expect, it } from 'vitest';
import { LabClock } from '../../src/server/kernel/clock';

/** The lab clock: a generated day's steps get its times of day, while everyone else keeps the wall clock. */
describe('the lab clock', () => {
  const wall = new Date('2026-11-26T09:30:00Z');
  const clock = new LabClock(() => wall);

  it('reads the wall clock unless a lab time is set', () => {
    expect(clock.now().toISOString()).toBe(wall.toISOString());
    expect(clock.isSet).toBe(false);
  });

  it('gives the work run at a lab time that time, through what the work awaits', async () => {
    const at = new Date('2026-10-03T08:12:00Z');
    const seen = await clock.at(at, async () => {
      await new Promise((r) => setTimeout(r, 1));
      await Promise.resolve();
      return [clock.now().toISOString(), clock.isSet];
    });
    expect(seen).toEqual([at.toISOString(), true]);
    expect(clock.now().toISOString()).toBe(wall.toISOString());
  });

  it('keeps two pieces of work at their own times when they run together', async () => {
    const times = ['2026-10-01T07:00:00Z', '2026-10-02T16:45:00Z'];
    const read = (t: string) =>
      clock.at(new Date(t), async () => {
        await new Promise((r) => setTimeout(r, 5));
        return clock.now().toISOString();
      });
    // A request of someone using the app meanwhile sees the wall clock.
    const [a, b, other] = await Promise.all([read(times[0]!), read(times[1]!), Promise.resolve(clock.now())]);
    expect([a, b]).toEqual(times.map((t) => new Date(t).toISOString()));
    expect(other.toISOString()).toBe(wall.toISOString());
  });

  it('hands out copies, so a caller moving its date does not move the clock', async () => {
    await clock.at(new Date('2026-10-01T07:00:00Z'), async () => {
      clock.now().setFullYear(1999);
      expect(clock.now().getUTCFullYear()).toBe(2026);
    });
  });

  it('refuses an invalid lab time', () => {
    expect(() => clock.at(new Date('nonsense'), async () => 0)).toThrow('a lab time must be a valid date');
  });
});
