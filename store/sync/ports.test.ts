import { describe, expect, it } from 'vitest';
import { inputFirstFrameScheduler, type AnimationFrames } from './ports.ts';

/** Frames run by hand: `frame(start)` calls what was requested before it. */
function handFrames() {
  let next = 0;
  const waiting = new Map<number, (frameStart: number) => void>();
  const frames: AnimationFrames = {
    request(callback) {
      waiting.set(++next, callback);
      return next;
    },
    cancel(handle) {
      waiting.delete(handle as number);
    },
  };
  const frame = (start: number) => {
    const due = [...waiting.values()];
    waiting.clear();
    for (const callback of due) callback(start);
  };
  return { frames, frame, waiting: () => waiting.size };
}

describe('inputFirstFrameScheduler', () => {
  it('flushes in the next frame when no one has touched the page', () => {
    const { frames, frame } = handFrames();
    const flushed: number[] = [];
    const scheduler = inputFirstFrameScheduler(frames, { lastInputAt: () => -Infinity });
    scheduler.schedule(() => flushed.push(1));
    frame(1000);
    expect(flushed).toEqual([1]);
  });

  it('leaves the frame after an input to it, and flushes in the one after', () => {
    const { frames, frame } = handFrames();
    let lastInput = -Infinity;
    const flushed: number[] = [];
    const scheduler = inputFirstFrameScheduler(frames, { lastInputAt: () => lastInput });
    scheduler.schedule(() => flushed.push(1));
    lastInput = 990;
    frame(1000);
    expect(flushed).toEqual([]);
    frame(1016.7);
    expect(flushed).toEqual([1]);
  });

  it('flushes as usual when the last input was before the previous frame', () => {
    const { frames, frame } = handFrames();
    const flushed: number[] = [];
    const scheduler = inputFirstFrameScheduler(frames, { lastInputAt: () => 970 });
    scheduler.schedule(() => flushed.push(1));
    frame(1000);
    expect(flushed).toEqual([1]);
  });

  it('waits one frame at most, even when the person types in every frame', () => {
    const { frames, frame } = handFrames();
    let lastInput = -Infinity;
    const flushed: number[] = [];
    const scheduler = inputFirstFrameScheduler(frames, { lastInputAt: () => lastInput });
    scheduler.schedule(() => flushed.push(1));
    for (const start of [1000, 1016.7, 1033.4]) {
      lastInput = start - 5;
      frame(start);
    }
    expect(flushed).toEqual([1]);
  });

  it('cancels a flush, before its frame and while it waits for the next', () => {
    const { frames, frame, waiting } = handFrames();
    let lastInput = -Infinity;
    const flushed: number[] = [];
    const scheduler = inputFirstFrameScheduler(frames, { lastInputAt: () => lastInput });
    scheduler.schedule(() => flushed.push(1))();
    frame(1000);
    const cancel = scheduler.schedule(() => flushed.push(2));
    lastInput = 1010;
    frame(1016.7);
    cancel();
    expect(waiting()).toBe(0);
    frame(1033.4);
    expect(flushed).toEqual([]);
  });
});
