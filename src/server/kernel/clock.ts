import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The lab's clock: the time a step happens at, as every service reads it (kernel.now). Normally the
 * wall clock; within `at(time, work)` the time given, for that work only (what it awaits included),
 * so that a generated month of the lab has the times of day a real one has, while people using the
 * app at the same moment keep the wall clock. Sessions (idle limits, token lifetimes) are about real
 * people waiting and read kernel.wallNow, never a lab time.
 */
export class LabClock {
  private readonly scene = new AsyncLocalStorage<{ at: Date }>();

  constructor(readonly wallNow: () => Date) {}

  /** The lab time of the work in progress, else the wall clock. A copy: callers may not move it. */
  readonly now = (): Date => {
    const set = this.scene.getStore();
    return set ? new Date(set.at.getTime()) : this.wallNow();
  };

  /** Runs work at a lab time; what it starts later (after it settles) is back on the wall clock. */
  at<T>(time: Date, work: () => Promise<T>): Promise<T> {
    if (Number.isNaN(time.getTime())) throw new RangeError('a lab time must be a valid date');
    return this.scene.run({ at: new Date(time.getTime()) }, work);
  }

  /** Whether the work in progress runs at a lab time rather than the wall clock. */
  get isSet(): boolean {
    return this.scene.getStore() !== undefined;
  }
}
